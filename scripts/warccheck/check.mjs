// check.mjs FILE...: reads each WARC file with warcio.js (an independent
// reader: github.com/webrecorder/warcio.js), and prints one JSON line per
// record: file, offset (of the record, or of its gzip member, as warcio.js
// counts it), type, record ID, target URI, Content-Length and whether the
// block read has that length ("length": "ok" | "bad"), and whether
// WARC-Block-Digest and WARC-Payload-Digest (sha1 base32, sha1/sha256
// hex or base32; the payload of an application/http block is what follows
// its header) match the bytes ("ok" | "bad" | "none" | "unknown-algorithm");
// and the block of a warcinfo record as text.
// Exits 1 with a message on stderr when a file cannot be parsed.
import fs from "node:fs";
import crypto from "node:crypto";
import { WARCParser } from "warcio";

const b32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function base32(buf) {
  let bits = 0, value = 0, out = "";
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += b32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += b32[(value << (5 - bits)) & 31];
  while (out.length % 8) out += "=";
  return out;
}

function digestMatches(field, bytes) {
  if (!field) return "none";
  const i = field.indexOf(":");
  if (i < 0) return "unknown-algorithm";
  const algo = field.slice(0, i).trim().toLowerCase().replace("-", "");
  const want = field.slice(i + 1).trim();
  if (!["sha1", "sha256", "md5"].includes(algo)) return "unknown-algorithm";
  const sum = crypto.createHash(algo).update(bytes).digest();
  const ok = want.replace(/=+$/, "").toUpperCase() === base32(sum).replace(/=+$/, "") ||
    want.toLowerCase() === sum.toString("hex");
  return ok ? "ok" : "bad";
}

function httpBody(block) {
  for (let i = 0; i + 3 < block.length; i++) {
    if (block[i] === 13 && block[i + 1] === 10 && block[i + 2] === 13 && block[i + 3] === 10) return block.subarray(i + 4);
  }
  return null;
}

let failed = false;
for (const file of process.argv.slice(2)) {
  try {
    const parser = new WARCParser(fs.createReadStream(file), { parseHttp: false });
    for await (const rec of parser) {
      const block = await rec.readFully(false);
      const cl = Number(rec.warcHeader("Content-Length"));
      const ct = (rec.warcHeader("Content-Type") || "").toLowerCase();
      let payload = "none";
      const pd = rec.warcHeader("WARC-Payload-Digest");
      if (pd) {
        const body = ct.startsWith("application/http") ? httpBody(block) : block;
        payload = body === null ? "bad" : digestMatches(pd, body);
      }
      console.log(JSON.stringify({
        file, offset: parser.offset, record_length: parser.recordLength, type: rec.warcType || "", record_id: rec.warcHeader("WARC-Record-ID") || "",
        uri: rec.warcTargetURI || "", content_length: cl, length: block.length === cl ? "ok" : "bad",
        block_digest: digestMatches(rec.warcHeader("WARC-Block-Digest"), block), payload_digest: payload,
        text: rec.warcType === "warcinfo" ? new TextDecoder().decode(block) : undefined,
      }));
    }
  } catch (e) {
    console.error(`check.mjs: ${file}: ${e && e.message ? e.message : e}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
