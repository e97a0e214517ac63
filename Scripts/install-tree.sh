#!/usr/bin/env bash
# Installs subfix under DESTDIR/PREFIX (`make install`, `make deb`), or removes what it installed (`make uninstall`):
#   PREFIX/bin/subfix
#   PREFIX/share/subfix/fonts/NotoSansCJKsc-Subset.otf and its LICENSE (found by subfix as ../share/subfix/fonts)
#   PREFIX/share/man/man1/subfix.1 and subfix-COMMAND.1 per command
#   PREFIX/share/bash-completion/completions/subfix
#   PREFIX/share/zsh/vendor-completions/_subfix when PREFIX is /usr (the folder Debian's zsh searches for
#     packages' completions: it does not search /usr/share/zsh/site-functions), else
#     PREFIX/share/zsh/site-functions/_subfix (searched by Debian's zsh for /usr/local; for another PREFIX, such
#     as ~/.local, add that folder to fpath before compinit, as README.md says)
#   PREFIX/share/fish/vendor_completions.d/subfix.fish
# The man pages and completions are printed by the binary itself (`subfix --generate ...`, from the command table
# that also prints --help), so they always match the binary installed.
#
# Usage: Scripts/install-tree.sh install BINARY DESTDIR PREFIX [--gzip-man]
#        Scripts/install-tree.sh uninstall DESTDIR PREFIX
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() {
    echo "usage: $0 install BINARY DESTDIR PREFIX [--gzip-man] | uninstall DESTDIR PREFIX" >&2
    exit 2
}

# The install paths, relative to DESTDIR/PREFIX.
font_dir=share/subfix/fonts
man_dir=share/man/man1
bash_file=share/bash-completion/completions/subfix
zsh_site_file=share/zsh/site-functions/_subfix
zsh_vendor_file=share/zsh/vendor-completions/_subfix
zsh_file() { if [ "$1" = /usr ]; then echo "$zsh_vendor_file"; else echo "$zsh_site_file"; fi; }
fish_file=share/fish/vendor_completions.d/subfix.fish

check_prefix() {
    case "$1" in
    /*) ;;
    *) echo "install: PREFIX must be an absolute path, not '$1'" >&2; exit 2 ;;
    esac
}

install_tree() {
    local binary="$1" root="$2$3" gzip_man="$4" zsh_file
    zsh_file="$(zsh_file "$3")"
    [ -x "$binary" ] || { echo "install: $binary: no such executable (build it first)" >&2; exit 1; }
    # Everything generated first, in a scratch folder: a binary that cannot print its pages installs nothing.
    # (global: the EXIT trap runs after this function returns)
    stage="$(mktemp -d)"
    trap 'rm -rf "$stage"' EXIT
    mkdir -p "$stage/man"
    "$binary" --generate man >"$stage/man/subfix.1"
    local command
    for command in $("$binary" --generate commands); do
        "$binary" --generate man "$command" >"$stage/man/subfix-$command.1"
    done
    if [ "$gzip_man" = yes ]; then gzip -9n "$stage"/man/*.1; fi
    for shell in bash zsh fish; do "$binary" --generate "$shell" >"$stage/completion.$shell"; done

    install -d "$root/bin" "$root/$font_dir" "$root/$man_dir" "$root/$(dirname "$bash_file")" \
        "$root/$(dirname "$zsh_file")" "$root/$(dirname "$fish_file")"
    install -m 755 "$binary" "$root/bin/subfix"
    install -m 644 "$here/Fonts/NotoSansCJKsc-Subset.otf" "$root/$font_dir/NotoSansCJKsc-Subset.otf"
    install -m 644 "$here/Fonts/LICENSE" "$root/$font_dir/LICENSE"
    install -m 644 "$stage"/man/* "$root/$man_dir/"
    install -m 644 "$stage/completion.bash" "$root/$bash_file"
    install -m 644 "$stage/completion.zsh" "$root/$zsh_file"
    install -m 644 "$stage/completion.fish" "$root/$fish_file"
    echo "install: subfix in $root/bin, its font in $root/$font_dir, man pages, bash/zsh/fish completions"
}

uninstall_tree() {
    local root="$1$2"
    rm -f "$root/bin/subfix" "$root/$font_dir/NotoSansCJKsc-Subset.otf" "$root/$font_dir/LICENSE" \
        "$root/$bash_file" "$root/$zsh_site_file" "$root/$zsh_vendor_file" "$root/$fish_file" \
        "$root/$man_dir"/subfix.1 "$root/$man_dir"/subfix.1.gz "$root/$man_dir"/subfix-*.1 "$root/$man_dir"/subfix-*.1.gz
    # Only the folders that are subfix's own; the shared ones (bin, man1, completions) stay.
    rmdir "$root/$font_dir" "$root/share/subfix" 2>/dev/null || true
    echo "uninstall: removed subfix from $root"
}

case "${1:-}" in
install)
    [ $# -ge 4 ] && [ $# -le 5 ] || usage
    check_prefix "$4"
    gzip_man=no
    if [ $# -eq 5 ]; then [ "$5" = --gzip-man ] || usage; gzip_man=yes; fi
    install_tree "$2" "$3" "$4" "$gzip_man"
    ;;
uninstall)
    [ $# -eq 3 ] || usage
    check_prefix "$3"
    uninstall_tree "$2" "$3"
    ;;
*) usage ;;
esac
