# The reference side of `npm run bench:hashes` (bench/hashes.ts): one long-lived process that
# times the reference C implementations, so that the Python interpreter starts once and no hash
# pays for it. One JSON request per line on stdin, one JSON answer per line on stdout:
#
#   {"op": "argon2", "m":, "t":, "p":, "n":}     argon2-cffi's hash_secret_raw(type=ID), i.e. the
#                                               reference C library (Debian's libargon2), n times
#   {"op": "crypt", "setting":, "n":}           crypt(3) (libcrypt.so.1: libxcrypt, what mkpasswd
#                                               links) through Python's crypt module, n times
#   {"op": "pbkdf2", "digest":, "iter":, "keylen":, "n":}
#                                               OpenSSL's PBKDF2 (the system libcrypto) through
#                                               hashlib.pbkdf2_hmac, n times
#   {"op": "spawn", "argv": [...], "n":}        the program run n times, one after the other
#
# Each answers {"cpu": seconds, "sys": seconds, "wall": seconds} for all n together: CPU is user +
# system from getrusage, of this process (RUSAGE_SELF: every thread, so argon2's lanes on threads
# of their own count) for the in-process operations, of the children waited for (RUSAGE_CHILDREN)
# for "spawn", so only the programs' own CPU counts, not this process's fork; Linux derives both
# from the scheduler's nanosecond accounting, reported to the microsecond.
# The password is the same 20-character value bench/hashes.ts hashes; salts are fresh per hash.
import json
import os
import resource
import subprocess
import sys
import time
import warnings

with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    import crypt  # deprecated in 3.11, gone in 3.13: Debian 12's python3 is 3.11
import hashlib
import argon2.low_level as argon2

SALT_ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'


def crypt_salt():
    return ''.join(SALT_ALPHABET[b & 63] for b in os.urandom(16))


def cpu_of(who):
    """User and system CPU seconds of this process (every thread) or of its children waited for."""
    usage = resource.getrusage(who)
    return usage.ru_utime, usage.ru_stime


def elapsed(who, before, wall):
    user, system = cpu_of(who)
    return {'cpu': user + system - before[0] - before[1], 'sys': system - before[1], 'wall': time.perf_counter() - wall}


def run(request, password):
    op = request['op']
    n = request['n']
    if op == 'spawn':
        argv = request['argv']
        before = cpu_of(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        for _ in range(n):
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return elapsed(resource.RUSAGE_CHILDREN, before, wall)
    if op == 'argon2':
        salts = [os.urandom(16) for _ in range(n)]
        work = lambda salt: argon2.hash_secret_raw(password, salt, request['t'], request['m'], request['p'], 32, argon2.Type.ID)
    elif op == 'crypt':
        setting = request['setting']
        text = password.decode()
        salts = [setting + crypt_salt() + '$' for _ in range(n)]
        work = lambda salt: crypt.crypt(text, salt)
    elif op == 'pbkdf2':
        salts = [os.urandom(16) for _ in range(n)]
        work = lambda salt: hashlib.pbkdf2_hmac(request['digest'], password, salt, request['iter'], request['keylen'])
    else:
        raise ValueError(op)
    before = cpu_of(resource.RUSAGE_SELF)
    wall = time.perf_counter()
    for salt in salts:
        if not work(salt):
            raise RuntimeError(f'{op} answered nothing')
    return elapsed(resource.RUSAGE_SELF, before, wall)


def main():
    password = sys.argv[1].encode()
    for line in sys.stdin:
        try:
            answer = run(json.loads(line), password)
        except Exception as error:  # answered, so that the bench stops with the reason
            answer = {'error': f'{type(error).__name__}: {error}'}
        sys.stdout.write(json.dumps(answer) + '\n')
        sys.stdout.flush()


main()
