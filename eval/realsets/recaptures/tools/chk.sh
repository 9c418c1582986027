#!/bin/bash
# usage: chk.sh file...  -> prints sha, reserved?/shared?/realpages?/claimed?
for f in "$@"; do s=$(sha256sum "$f"|cut -d' ' -f1); flags=""
grep -q "^$s" /work/shared/data/reserved.sha256 && flags="$flags RESERVED"
sha256sum /work/shared/data/warc/* /work/main/eval/realpages/warcs/* 2>/dev/null | grep -q "^$s" && flags="$flags INUSE"
grep -q "$s" /work/claims.txt && flags="$flags CLAIMED"
echo "$s $(stat -c%s "$f") $(basename "$f") $flags"; done
