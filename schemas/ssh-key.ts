import { Type } from '@sinclair/typebox'
import { GenerationResult, Params, Quantity } from './common.js'

/** CONTRACT §2 ssh-key: the longest comment. */
export const SSH_COMMENT_MAX_LENGTH = 64

export const SshKeyParams = Params('SshKeyParams', {
  comment: Type.String({
    maxLength: SSH_COMMENT_MAX_LENGTH,
    default: '',
    description: 'The key\'s comment, as `ssh-keygen -C` takes it (0..64 printable ASCII characters, space to `~`): stored in the private key file and written after the public key, where `authorized_keys` shows it. Usually `user@host` or what the key is for.',
    examples: ['deploy@ci']
  }),
  quantity: Quantity
}, {
  description: 'OpenSSH Ed25519 key pair parameters.',
  examples: [{ comment: 'deploy@ci' }, { quantity: 2 }]
})

/**
 * The longest public key line: `ssh-ed25519 `, the Base64 of the 51-byte blob (68 characters), a
 * space and a comment of 64 characters.
 */
const SSH_PUBLIC_KEY_MAX_LENGTH = 12 + 68 + 1 + SSH_COMMENT_MAX_LENGTH

export const SshKeyResult = GenerationResult('SshKeyResult', 'ssh-key', { keyPairs: true, publicKeyMaxLength: SSH_PUBLIC_KEY_MAX_LENGTH })
