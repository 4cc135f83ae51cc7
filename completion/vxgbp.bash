# SPDX-License-Identifier: BSD-2-Clause
# bash completion for gbpdump(1), gbpgen(1) and gbpprobe(1)   -*- shell-script -*-
#
# One file, installed under each program's name: bash-completion loads it
# for whichever is completed first, and it registers all three.
#
# Options, the kind of value an option takes and gbpgen's spec keys are read
# from the program's own --help when completing, so a new option completes
# without a change here; so are the values --help lists as a|b|c (gbpdump
# --profile's, from libvxgbp's profile table).
#
# shellcheck shell=bash disable=SC2207,SC2034
# SC2207: COMPREPLY=($(compgen ...)) is bash-completion's idiom; here it only
# ever splits words without blanks (options, keys, interfaces; files go
# through _filedir).  SC2034: words and cword are _init_completion's.

# The options a vxgbp program's --help names: every -x / --word on a line
# that starts with one (after blanks) and on the Usage: lines.
_vxgbp_options()
{
    LC_ALL=C "$1" --help 2>&1 | awk '
        /^Usage:/ { usage = 1 }
        usage && !/^Usage:/ && !/^[ \t]/ { usage = 0 }
        usage || /^[ \t]*-/ {
            line = $0
            while (match(line, /(^|[ \t\[,|(\/])--?[A-Za-z0-9][-A-Za-z0-9]*/)) {
                opt = substr(line, RSTART, RLENGTH)
                sub(/^[^-]/, "", opt)
                if (!(opt in seen)) { seen[opt] = 1; print opt }
                line = substr(line, RSTART + RLENGTH)
            }
        }'
}

# The word --help puts after option $2 of program $1 (FILE, N, IFACE,
# ether|sll|sll2, ...), empty when it takes no value.
_vxgbp_optarg()
{
    LC_ALL=C "$1" --help 2>&1 | awk -v opt="$2" '
        {
            n = split($0, w, /[ \t\[\],]+/)
            for (i = 1; i < n; i++)
                if (w[i] == opt && w[i + 1] ~ /^[A-Z]|^[a-z0-9]+(\|[a-z0-9]+)+$/) {
                    print w[i + 1]
                    exit
                }
        }'
}

# Files for a capture: pcap, pcapng and their compressed forms (and
# directories) when there are any, else any file.
_vxgbp_captures()
{
    local ext='pcap|pcapng|cap|pcap.gz|pcapng.gz|pcap.zst|pcapng.zst|pcap.xz|pcapng.xz'

    local f
    _filedir "$ext"
    for f in "${COMPREPLY[@]}"; do
        [[ -d $f ]] || return 0
    done
    COMPREPLY=()
    _filedir
}

_vxgbp_interfaces()
{
    local d ifs=()

    for d in /sys/class/net/*; do
        [[ -e $d ]] && ifs+=("${d##*/}")
    done
    COMPREPLY=($(compgen -W "${ifs[*]}" -- "$cur"))
}

# The value of option $prev of program $1, by what its --help calls it.
# Returns 1 when $prev takes no value.
_vxgbp_value()
{
    local arg
    arg=$(_vxgbp_optarg "$1" "$prev")
    [[ $arg ]] || return 1
    case $prev:$arg in
        -r:* | -w:* | -W:*) _vxgbp_captures ;;
        *:*\|*) COMPREPLY=($(compgen -W "${arg//|/ }" -- "$cur")) ;;
        *:*FILE*) _filedir ;;
        *:IFACE) _vxgbp_interfaces ;;
    esac
    return 0
}

# Every vxgbp program takes --help and --version, listed or not.
_vxgbp_complete_options()
{
    COMPREPLY=($(compgen -W "$({ _vxgbp_options "$1"; printf '%s\n' --help --version; } |
        sort -u)" -- "$cur"))
}

_gbpdump()
{
    local cur prev words cword split
    _init_completion -s || return

    _vxgbp_value "$1" && return
    $split && return
    if [[ $cur == -* ]]; then
        _vxgbp_complete_options "$1"
    fi
} && complete -F _gbpdump gbpdump

# gbpgen's spec keys ("key=") and the values of those whose --help lists
# them (csum=compute|zero|bad|partial), for the last key of the word: a
# spec is one argument, 'vni=100 gbp=0x200'.
_vxgbp_gbpgen_keys()
{
    local help word=${cur#[\'\"]} lead=""
    [[ $word == *' '* ]] && lead="${word% *} " && word=${word##* }
    help=$(LC_ALL=C "$1" --help 2>&1)
    if [[ $word == *=* ]]; then
        local key=${word%%=*} vals
        vals=$(awk -v k="$key" '$1 ~ "^" k "=" { sub(/^[^=]*=/, "", $1); print $1; exit }' \
            <<<"$help")
        [[ $vals == *\|* ]] || return
        COMPREPLY=($(compgen -P "$lead$key=" -W "${vals//|/ }" -- "${word#*=}"))
        return
    fi
    COMPREPLY=($(compgen -P "$lead" -W "$(awk '/^  [a-z][-a-z0-9]*=/ {
        sub(/=.*/, "=", $1); print $1 }' <<<"$help")" -- "$word"))
    compopt -o nospace 2>/dev/null
}

_gbpgen()
{
    local cur prev words cword split
    _init_completion -s -n =: || return

    _vxgbp_value "$1" && return
    $split && return
    if [[ $cur == -* ]]; then
        _vxgbp_complete_options "$1"
        return
    fi
    _vxgbp_gbpgen_keys "$1"
} && complete -F _gbpgen gbpgen

# gbpprobe: options; addresses of this host (IPv4 and IPv6: the VTEP's
# family is the underlay's; not link-local ones, which need a scope) for
# --local and --flood-addr.
_gbpprobe()
{
    local cur prev words cword split
    _init_completion -s || return

    case $prev in
        --local | --flood-addr)
            COMPREPLY=($(compgen -W "$(ip -o addr show 2>/dev/null |
                awk '{ sub(/\/.*/, "", $4); if ($4 !~ /^fe80:/) print $4 }')" -- "$cur"))
            return
            ;;
    esac
    _vxgbp_value "$1" && return
    $split && return
    if [[ $cur == -* ]]; then
        _vxgbp_complete_options "$1"
    fi
} && complete -F _gbpprobe gbpprobe

# ex: filetype=sh
