import fp from 'fastify-plugin'
import type { Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { SshKeyParams, SshKeyResult } from '../schemas/ssh-key.js'
import { ParameterError } from '../src/http/parameter-error.js'
import type { Generated } from '../src/http/generator-route.js'
import { registerGenerator } from '../src/http/generator-route.js'
import { opensshPrivateKey, opensshPublicKey } from '../src/keys/openssh.js'
import { randomChunks } from '../src/random/csprng.js'
import { ed25519PublicKey } from '../src/keys/x25519.js'

type Params = Static<typeof SshKeyParams>

/** CONTRACT §2 ssh-key: a comment is printable ASCII, space to `~` (one byte a character in the file). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

const SEED_BYTES = 32
/** Each key's draw: the Ed25519 seed, then the 32-bit check integer. */
const DRAW_BYTES = SEED_BYTES + 4

/**
 * `quantity` Ed25519 key pairs as `ssh-keygen -t ed25519 -N '' -C comment` makes them: the
 * unencrypted private key file (the value) and the public key line. Seeds and check integers come
 * from one draw, wiped once encoded; node:crypto derives each public key.
 */
/** The comment rule: printable ASCII. */
export function checkComment ({ comment }: Pick<Params, 'comment'>): void {
  if (!PRINTABLE_ASCII.test(comment)) {
    throw new ParameterError([{ pointer: '#/comment', code: 'NOT_ALLOWED_VALUE', message: 'NOT_PRINTABLE_ASCII' }])
  }
}

export function generateSshKeys ({ comment, quantity }: Params): Generated {
  checkComment({ comment })
  const publicKeys: string[] = []
  const values = randomChunks(DRAW_BYTES, quantity, (bytes, start) => {
    const seed = bytes.subarray(start, start + SEED_BYTES)
    const publicKey = ed25519PublicKey(seed)
    publicKeys.push(opensshPublicKey(publicKey, comment))
    return opensshPrivateKey(seed, publicKey, bytes.readUInt32BE(start + SEED_BYTES), comment)
  })
  // The random check integers are not part of the key: its strength is the seed's 256 bits
  return { values, publicKeys, entropyBits: 256 }
}

export default fp(async function sshKeyGenerator (app: FastifyInstance) {
  registerGenerator(app, {
    type: 'ssh-key',
    name: 'SshKey',
    summary: 'Generate OpenSSH Ed25519 key pairs',
    description: 'Ed25519 key pairs as `ssh-keygen -t ed25519 -N \'\' -C <comment>` makes them. Each value is the unencrypted private key file (`-----BEGIN OPENSSH PRIVATE KEY-----` ... `-----END OPENSSH PRIVATE KEY-----`, every line ending in a line feed): save it as `~/.ssh/id_ed25519` with mode 600, or hand it to a deploy tool. Its public key, in `publicKeys`, is the `id_ed25519.pub` line (`ssh-ed25519 AAAA... comment`) for `authorized_keys` or a forge\'s deploy keys. As text/plain each private key is followed by its public key on a line of its own.',
    params: SshKeyParams,
    result: SshKeyResult,
    generate: generateSshKeys,
    check: checkComment,
    keyPairs: () => true,
    // A private key file spans lines: no single-quoted line carries it, whatever the parameters
    notRepresentable: () => ['type']
  })
}, { name: 'generator-ssh-key', dependencies: ['errors'] })
