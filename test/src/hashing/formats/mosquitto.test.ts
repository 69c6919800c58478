// CONTRACT §12 mosquitto: every hash handed to Mosquitto itself: a broker started here reads them
// from its password_file and mosquitto_pub logs in with the value, and not with another.
import t from 'tap'
import { spawn, spawnSync } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { chownSync, existsSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { wordlist as french } from '@scure/bip39/wordlists/french.js'
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish.js'
import { mosquittoHash } from '../../../../src/hashing/formats/mosquitto.js'
import { saltFor } from '../../../../src/hashing/salt.js'
import { randomString } from '../../../../src/random/csprng.js'
import { freePort, hasTool, temporaryDirectory } from '../../../tools.js'

// Debian installs the broker in /usr/sbin, which a user's PATH may not hold
const MOSQUITTO = existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto'
const HASH = /^\$7\$(\d+)\$([A-Za-z0-9+/]{16})\$([A-Za-z0-9+/]{86}==)$/
const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+,-./:;<=>?@[]^_{|}~'
const hash = (value: string, iterations: number, salt = saltFor('mosquitto')) => mosquittoHash(value, salt, { algorithm: 'mosquitto', iterations })
/** `count` words of `list`, at least two with a combining mark (NFKD, as the passphrase generator has them). */
const passphrase = (list: readonly string[], count: number, separator: string) => {
  const marked = list.filter((word) => /\p{M}/u.test(word))
  return Array.from({ length: count }, (_, index) => (index < 2 ? marked : list)[randomInt(index < 2 ? marked.length : list.length)]).join(separator)
}

t.test('layout: $7$<iterations>$<12-byte salt>$<64-byte hash>, Base64 with padding', async (t) => {
  const salt = saltFor('mosquitto')
  const match = HASH.exec(hash('pencil', 101, salt))
  t.equal(match?.[1], '101')
  t.same(Buffer.from(match?.[2] as string, 'base64'), salt)
  t.equal(Buffer.from(match?.[3] as string, 'base64').length, 64)
})

t.test('known answers from mosquitto_passwd 2.0.11, remade with its salt (no broker needed)', async (t) => {
  // `mosquitto_passwd -b` and `mosquitto_passwd -b -I 1000` wrote these
  const written = [
    ['pencil', '$7$101$ZWJ+Mg2SXV7U8KYD$OQaq+dH2X0Ddk7n/N29lD02t514CjM6i3FZFGbePrmWiJThDydGsbv0KGRTK5mYhq5n/kQtwNleymG7JdMsZlw=='],
    ['cami\u0301n\u00a0pa\u0301jaro', '$7$1000$fO1nLetfpfK4mSpk$Yp7k1gMogCxo6WZg3ZyfziLsxoMT7mjnoQEt5PhvtuKovKtp5ep2+zaKTHgjoZFQKhpKNuSg33opM+D0SfRBww==']
  ] as const
  for (const [value, line] of written) {
    const [, iterations, salt] = HASH.exec(line) as unknown as [string, string, string]
    t.equal(hash(value, Number(iterations), Buffer.from(salt, 'base64')), line)
  }
})

/** Resolves once something accepts TCP connections on `port`, or rejects after 10 s. */
async function listening (port: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true) })
      socket.on('error', () => resolve(false))
    })
    if (open) return
    await sleep(50)
  }
  throw new Error(`nothing listens on port ${port}`)
}

t.test('Mosquitto', async (t) => {
  if (!hasTool(t, MOSQUITTO, 'mosquitto') || !hasTool(t, 'mosquitto_pub', 'mosquitto-clients')) return
  const directory = temporaryDirectory(t)
  const port = await freePort()

  // [user, value, iterations]
  const users: Array<[string, string, number]> = [
    ['password101', randomString(PASSWORD_ALPHABET, 24), 101],
    ['password100000', randomString(PASSWORD_ALPHABET, 24), 100000],
    ['spanish101', passphrase(spanish, 6, '-'), 101],
    ['spanish1000', passphrase(spanish, 6, '\u00a0'), 1000],
    ['french100000', passphrase(french, 6, '\u{1f600}'), 100000],
    ['french1000', passphrase(french, 5, '\ufffd'), 1000]
  ]
  // Mosquitto hashes the bytes it receives: a hash of the precomposed (NFC) form is another password
  const nfkd = passphrase(spanish, 4, ' ')
  const lines = users.map(([user, value, iterations]) => `${user}:${hash(value, iterations)}`)
  lines.push(`nfc:${hash(nfkd.normalize('NFC'), 101)}`)
  writeFileSync(join(directory, 'passwords'), lines.join('\n') + '\n')
  writeFileSync(join(directory, 'mosquitto.conf'), [
    `listener ${port} 127.0.0.1`,
    'allow_anonymous false',
    `password_file ${join(directory, 'passwords')}`,
    'persistence false',
    'log_dest stderr',
    ''
  ].join('\n'))

  // As root the broker would switch to the user `mosquitto` and then not read a private
  // password_file: it runs as that user (or `nobody`) from the start, owning its files
  const owner = process.getuid?.() === 0 ? ['mosquitto', 'nobody'].find((name) => spawnSync('id', [name]).status === 0) : undefined
  const [uid, gid] = owner === undefined ? [] : ['-u', '-g'].map((flag) => Number(spawnSync('id', [flag, owner], { encoding: 'utf8' }).stdout))
  if (uid !== undefined && gid !== undefined) for (const file of ['', 'passwords', 'mosquitto.conf']) chownSync(join(directory, file), uid, gid)
  let log = ''
  const broker = spawn(MOSQUITTO, ['-c', join(directory, 'mosquitto.conf')], { uid, gid, stdio: ['ignore', 'ignore', 'pipe'] })
  broker.stderr.on('data', (chunk: Buffer) => { log += chunk.toString() })
  const exited = new Promise((resolve) => broker.once('exit', resolve))
  t.teardown(async () => { broker.kill('SIGTERM'); await exited })
  await Promise.race([listening(port), exited.then(() => { throw new Error(`mosquitto exited: ${log}`) })])

  const publish = (user: string, value: string) => spawnSync('mosquitto_pub', ['-h', '127.0.0.1', '-p', String(port), '-u', user, '-P', value, '-t', 't', '-m', 'm'], { encoding: 'utf8', timeout: 30_000 })
  for (const [user, value, iterations] of users) {
    const accepted = publish(user, value)
    t.equal(accepted.status, 0, `${user} (${iterations} iterations): publishes with its value ${accepted.stderr}`)
    const refused = publish(user, value + 'x')
    t.not(refused.status, 0, `${user}: not with another`)
    t.match(refused.stderr, /not authori[sz]ed/i, `${user}: refused as not authorised`)
  }
  t.not(nfkd, nfkd.normalize('NFC'))
  t.equal(publish('nfc', nfkd.normalize('NFC')).status, 0, 'the NFC form publishes with the hash of the NFC form')
  t.match(publish('nfc', nfkd).stderr, /not authori[sz]ed/i, 'the NFKD form does not: the bytes are hashed as they are')
  t.notMatch(log, /removing entry|Unable to decode|Invalid password hash/, 'the broker read every line of the password_file')
})
