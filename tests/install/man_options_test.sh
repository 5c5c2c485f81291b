#!/usr/bin/env bash
# The man pages cannot drift from the programs' option tables (issue 32): every long option that
# `blockwise --help` lists is in blockwise.1 and every one the page names is in --help; every
# blockwise-cli subcommand is in blockwise-cli.1 and each of its long options is named there.
# Usage: man_options_test.sh BLOCKWISE BLOCKWISE_CLI REPO_ROOT
set -u
APP="$1"; CLI="$2"; ROOT="$3"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
opts() { grep -oE -- '--[a-z][a-z0-9-]+' | grep -vx -- '--help' | sort -u; }
man_opts() { sed 's/\\-/-/g' "$1" | opts; }
help=$("$APP" --help | opts)
page=$(man_opts "$ROOT/packaging/man/blockwise.1")
for o in $help; do grep -qx -- "$o" <<<"$page" || bad "blockwise --help has $o; packaging/man/blockwise.1 does not"; done
for o in $page; do grep -qx -- "$o" <<<"$help" || bad "packaging/man/blockwise.1 names $o; blockwise --help does not"; done
page=$(sed 's/\\-/-/g' "$ROOT/packaging/man/blockwise-cli.1")
subs=$("$CLI" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF { print $1 }')
[ -n "$subs" ] || bad "blockwise-cli --help lists no subcommands"
for s in $subs; do
  grep -qE "^\.B $s( |$)" <<<"$page" || bad "blockwise-cli $s is not described in packaging/man/blockwise-cli.1"
  for o in $("$CLI" "$s" --help | opts); do
    grep -qF -- "$o" <<<"$page" || bad "blockwise-cli $s $o is not in packaging/man/blockwise-cli.1"
  done
done
[ $fail -eq 0 ] && echo "ok: the man pages name every option and subcommand"
exit $fail
