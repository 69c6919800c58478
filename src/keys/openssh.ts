// OpenSSH's Ed25519 key files, byte for byte as `ssh-keygen -t ed25519 -N ''` writes them
// (OpenSSH's PROTOCOL.key): the unencrypted `openssh-key-v1` structure in Base64 wrapped at 70
// characters, and the one-line public key. Written here rather than with sshpk: sshpk derives
// Ed25519 keys with tweetnacl instead of node:crypto, draws its check integer outside
// src/random/csprng.ts, leaves its buffers unwiped and brings nine CommonJS dependencies for 60 lines of
// length-prefixed strings.

const MAGIC = 'openssh-key-v1\0'
const KEY_TYPE = 'ssh-ed25519'
const NONE = 'none'
/** Cipher `none` pads the private section to its block size of 8 (ssh-keygen's sshkey_private_to_blob). */
const BLOCK_SIZE = 8
/** sshbuf_dtob64 with line wrapping: ssh-keygen's line length for PEM-style key files. */
const LINE_LENGTH = 70
export const BEGIN = '-----BEGIN OPENSSH PRIVATE KEY-----\n'
export const END = '-----END OPENSSH PRIVATE KEY-----\n'

const ED25519_KEY_BYTES = 32
/** SSH wire-format `string`s: a uint32 length, then the bytes. */
const stringSize = (bytes: number) => 4 + bytes
/** The public key blob: string "ssh-ed25519", string key. */
const PUBLIC_BLOB_BYTES = stringSize(KEY_TYPE.length) + stringSize(ED25519_KEY_BYTES)

/** Writes SSH wire-format fields into one buffer, front to back. */
class Writer {
  offset = 0
  constructor (readonly buffer: Buffer) {}

  uint32 (value: number): this {
    this.offset = this.buffer.writeUInt32BE(value, this.offset)
    return this
  }

  raw (bytes: Buffer | string): this {
    this.offset += typeof bytes === 'string' ? this.buffer.write(bytes, this.offset, 'latin1') : bytes.copy(this.buffer, this.offset)
    return this
  }

  string (...parts: Array<Buffer | string>): this {
    this.uint32(parts.reduce((sum, part) => sum + part.length, 0))
    for (const part of parts) this.raw(part)
    return this
  }
}

function writePublicBlob (writer: Writer, publicKey: Buffer): Writer {
  return writer.string(KEY_TYPE).string(publicKey)
}

/** `ssh-ed25519 <Base64 of the blob>`, then one space and the comment when there is one (as `ssh-keygen -y` prints it). */
export function opensshPublicKey (publicKey: Buffer, comment: string): string {
  const blob = writePublicBlob(new Writer(Buffer.alloc(PUBLIC_BLOB_BYTES)), publicKey).buffer.toString('base64')
  return comment === '' ? `${KEY_TYPE} ${blob}` : `${KEY_TYPE} ${blob} ${comment}`
}

/**
 * The private key file of Ed25519 `seed` (and its `publicKey`): one key, cipher and KDF `none`,
 * `checkInt` twice (ssh-keygen's random check integer, which a decryption would compare), the
 * private key as seed ‖ public key, the comment (printable ASCII, one byte a character), then
 * padding bytes 1, 2, 3, ... to a multiple of 8. The buffer holding the seed is wiped once encoded.
 */
export function opensshPrivateKey (seed: Buffer, publicKey: Buffer, checkInt: number, comment: string): string {
  const unpadded = 8 + PUBLIC_BLOB_BYTES + stringSize(2 * ED25519_KEY_BYTES) + stringSize(comment.length)
  const padding = (BLOCK_SIZE - (unpadded % BLOCK_SIZE)) % BLOCK_SIZE
  const privateSection = unpadded + padding
  const total = MAGIC.length + 2 * stringSize(NONE.length) + stringSize(0) + 4 + stringSize(PUBLIC_BLOB_BYTES) + stringSize(privateSection)
  const writer = new Writer(Buffer.alloc(total))
  writer.raw(MAGIC).string(NONE).string(NONE).string('').uint32(1)
  writer.uint32(PUBLIC_BLOB_BYTES)
  writePublicBlob(writer, publicKey)
  writer.uint32(privateSection).uint32(checkInt).uint32(checkInt)
  writePublicBlob(writer, publicKey).string(seed, publicKey).string(comment)
  for (let pad = 1; pad <= padding; pad++) writer.buffer[writer.offset++] = pad
  const base64 = writer.buffer.toString('base64')
  writer.buffer.fill(0)
  let text = BEGIN
  for (let start = 0; start < base64.length; start += LINE_LENGTH) text += base64.slice(start, start + LINE_LENGTH) + '\n'
  return text + END
}
