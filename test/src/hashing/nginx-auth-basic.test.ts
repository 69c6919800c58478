// CONTRACT §12: the hashes an htpasswd file for nginx `auth_basic` holds, read by a real nginx
// (Debian's, started here unprivileged in a temporary directory): one user with a bcrypt line, one
// with a sha512-crypt line, at their defaults. The protected location serves a file, so the answer
// comes after the access phase has checked the credentials (`return 200` would answer before it).
import t, { type Test } from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { bcryptHash } from '../../../src/hashing/formats/bcrypt.js'
import { sha512CryptHash } from '../../../src/hashing/formats/sha512-crypt.js'
import { saltFor } from '../../../src/hashing/salt.js'
import { hasTool, temporaryDirectory } from '../../tools.js'

const START_TIMEOUT = 10_000
const FILE = 'only for the right credentials\n'
// A value with a colon: Basic credentials split at the first one, which is the user's
const USERS = [
  { user: 'alice', value: 'k7#Qm9xP!aZ2:wL5r@tY8', hash: (value: string) => bcryptHash(value, saltFor('bcrypt'), { algorithm: 'bcrypt', cost: 12 }) },
  { user: 'bob', value: 'tendon-ample-hazel-oboe-unwind-pug', hash: (value: string) => sha512CryptHash(value, saltFor('sha512-crypt'), { algorithm: 'sha512-crypt', rounds: 5000 }) }
]

/** A loopback port free at the time of asking (nginx takes it next; a start that finds it taken is retried). */
async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function config (dir: string, port: number): string {
  const asRoot = process.getuid?.() === 0
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${name}_temp_path ${dir}/${name}_temp;`)
  return [
    // As root, nginx's workers would run as nobody, who may not read the temporary directory
    ...(asRoot ? ['user root;'] : []),
    'worker_processes 1;',
    `error_log ${dir}/error.log info;`,
    'events { worker_connections 16; }',
    'http {',
    `  access_log ${dir}/access.log;`,
    ...temp,
    '  server {',
    `    listen 127.0.0.1:${port};`,
    `    root ${dir}/www;`,
    '    location /private/ {',
    '      auth_basic "randgen";',
    `      auth_basic_user_file ${dir}/htpasswd;`,
    '    }',
    '  }',
    '}',
    ''
  ].join('\n')
}

interface Answer { status: number, body: string }

async function get (port: number, path: string, credentials?: string): Promise<Answer> {
  return await new Promise((resolve, reject) => {
    const headers: Record<string, string> = credentials === undefined ? {} : { authorization: `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}` }
    request({ host: '127.0.0.1', port, path, headers, agent: false, timeout: 5000 }, (response) => {
      let body = ''
      response.setEncoding('utf8').on('data', (chunk: string) => { body += chunk }).on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    }).once('error', reject).once('timeout', function (this: { destroy: (error: Error) => void }) { this.destroy(new Error('timeout')) }).end()
  })
}

/** Starts nginx on `dir`; resolves its port once it answers there, or rejects with its error log. Stopped at teardown. */
async function startNginx (t: Test, dir: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    writeFileSync(join(dir, 'nginx.conf'), config(dir, port))
    const args = ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', `daemon off; pid ${dir}/nginx.pid;`]
    const child: ChildProcess = spawn('nginx', args, { stdio: ['ignore', 'ignore', 'pipe'] })
    const state = { exited: false, stderr: '' }
    const exited = new Promise<void>((resolve) => child.once('exit', () => { state.exited = true; resolve() }))
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { state.stderr += chunk })
    t.teardown(async () => {
      if (state.exited) return
      child.kill('SIGTERM')
      await exited
    })
    const log = () => `${state.stderr}${readFileSync(join(dir, 'error.log'), { encoding: 'utf8', flag: 'a+' })}`
    const deadline = Date.now() + START_TIMEOUT
    while (!state.exited && Date.now() < deadline) {
      try {
        await get(port, '/')
        return port
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    if (state.exited && attempt < 5 && log().includes('Address already in use')) continue
    throw new Error(`nginx did not start on port ${port}: ${log()}`)
  }
}

t.test('nginx auth_basic: a bcrypt line and a sha512-crypt line, the right value served, a wrong one 401', async (t) => {
  if (!hasTool(t, 'nginx', 'nginx-light')) return
  const dir = temporaryDirectory(t)
  mkdirSync(join(dir, 'www/private'), { recursive: true })
  writeFileSync(join(dir, 'www/private/file.txt'), FILE)
  const lines = USERS.map(({ user, value, hash }) => `${user}:${hash(value)}`)
  t.match(lines[0], /^alice:\$2y\$12\$/, 'bcrypt at its defaults')
  t.match(lines[1], /^bob:\$6\$[./0-9A-Za-z]{16}\$/, 'sha512-crypt at its defaults')
  writeFileSync(join(dir, 'htpasswd'), `${lines.join('\n')}\n`)
  const port = await startNginx(t, dir)

  t.equal((await get(port, '/private/file.txt')).status, 401, 'no credentials: 401')
  for (const { user, value } of USERS) {
    t.same(await get(port, '/private/file.txt', `${user}:${value}`), { status: 200, body: FILE }, `${user}: the right value, the file served`)
    t.equal((await get(port, '/private/file.txt', `${user}:${value}x`)).status, 401, `${user}: a wrong value, 401`)
    t.equal((await get(port, '/private/file.txt', `${user}:${value.slice(0, -1)}`)).status, 401, `${user}: the value less its last character, 401`)
  }
  const [alice, bob] = USERS as [typeof USERS[0], typeof USERS[0]]
  t.equal((await get(port, '/private/file.txt', `alice:${bob.value}`)).status, 401, 'alice with bob\'s value, 401')
  t.equal((await get(port, '/private/file.txt', `bob:${alice.value}`)).status, 401, 'bob with alice\'s value, 401')
  t.notMatch(readFileSync(join(dir, 'error.log'), 'utf8'), /crypt\(\)|\[(crit|alert|emerg)\]/, 'nginx logged no crypt() failure')
})
