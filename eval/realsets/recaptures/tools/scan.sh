#!/bin/bash
# scan.sh owner+name : extract all warc blobs (any history) <= 3.5MB, check sha
r=$1; R=/work/.mirror/$r/repo; [ -d $R/.git ] && R=$R/.git; owner=${r%%+*}; name=${r#*+}
mkdir -p cand/$r
git -C $R rev-list --all --objects 2>/dev/null | grep -iE '\.warc(\.gz)?$' | sort -u -k1,1 | while read blob path; do
  sz=$(git -C $R cat-file -s $blob); [ "$sz" -gt 3600000 ] && { echo "BIG $sz $path"; continue; }
  [ "$sz" -lt 3000 ] && { echo "TINY $sz $path"; continue; }
  out=cand/$r/$(echo "$path" | tr '/' '^')
  git -C $R cat-file blob $blob > "$out"
  s=$(sha256sum "$out"|cut -d' ' -f1); flags=""
  grep -q "^$s" /work/shared/data/reserved.sha256 && flags="$flags RESERVED"
  sha256sum /work/shared/data/warc/* /work/main/eval/realpages/warcs/* | grep -q "^$s" && flags="$flags INUSE"
  grep -q "$s" /work/claims.txt && flags="$flags CLAIMED"
  [ -n "$flags" ] && rm -f "$out"
  echo "$s $sz $path $flags"
done
