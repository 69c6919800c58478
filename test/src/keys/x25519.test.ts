// X25519 and Ed25519 public keys (vpn, age-key, ssh-key): whichever way into node:crypto this
// runtime takes, checked against the RFCs' known answers. (wg, age-keygen and ssh-keygen read
// the keys in test/plugins/*.)
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { JWK, RAW, ed25519PublicKey, pickCurveBackend, x25519PublicKey, type CurveBackend } from '../../../src/keys/x25519.js'

const hex = (text: string): Buffer => Buffer.from(text, 'hex')
// RFC 7748 §6.1 (Alice's key pair) and RFC 8032 §7.1 TEST 1
const X25519_PRIVATE = hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a')
const X25519_PUBLIC = '8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a'
const ED25519_SEED = hex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60')
const ED25519_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'

const answering = [RAW, JWK].filter((backend) => {
  try { return backend.publicKeyOf('X25519', X25519_PRIVATE).length === 32 } catch { return false }
})

t.test('the runtime takes one of the two ways in; Node 26 refuses the JWK, Node 20 the raw keys', async (t) => {
  t.ok(answering.length > 0, `node ${process.version}: ${answering.map((b) => b.name).join(', ')}`)
  const major = Number(process.versions.node.split('.')[0])
  if (major >= 26) t.throws(() => JWK.publicKeyOf('X25519', X25519_PRIVATE), 'Node 26 checks the JWK\'s x')
  if (major <= 22) t.throws(() => RAW.publicKeyOf('X25519', X25519_PRIVATE), 'no raw key formats before Node 24')
})

t.test('known answers (RFC 7748, RFC 8032), through every way this runtime takes', async (t) => {
  for (const backend of answering) {
    t.equal(backend.publicKeyOf('X25519', X25519_PRIVATE).toString('hex'), X25519_PUBLIC, `${backend.name}: X25519`)
    t.equal(backend.publicKeyOf('Ed25519', ED25519_SEED).toString('hex'), ED25519_PUBLIC, `${backend.name}: Ed25519`)
  }
  t.equal(x25519PublicKey(X25519_PRIVATE).toString('hex'), X25519_PUBLIC, 'x25519PublicKey')
  t.equal(ed25519PublicKey(ED25519_SEED).toString('hex'), ED25519_PUBLIC, 'ed25519PublicKey')
  // Where both answer (Node 24), they agree on random keys too
  if (answering.length === 2) {
    for (let i = 0; i < 50; i++) {
      const key = randomBytes(32)
      t.same(RAW.publicKeyOf('X25519', key), JWK.publicKeyOf('X25519', key))
      t.same(RAW.publicKeyOf('Ed25519', key), JWK.publicKeyOf('Ed25519', key))
    }
  }
})

t.test('pickCurveBackend: the first that answers both curves; none is an error', async (t) => {
  const edOnly: CurveBackend = { name: 'ed only', publicKeyOf: (crv) => { if (crv === 'X25519') throw new Error('no'); return Buffer.alloc(32) } }
  const xOnly: CurveBackend = { name: 'x only', publicKeyOf: (crv) => { if (crv === 'Ed25519') throw new Error('no'); return Buffer.alloc(32) } }
  const any = answering[0] as CurveBackend
  t.equal(pickCurveBackend([edOnly, xOnly, any]), any)
  t.throws(() => pickCurveBackend([edOnly, xOnly]), /no X25519\/Ed25519 key import/)
})
