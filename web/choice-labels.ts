// Words for the choices of a parameter (CONTRACT §2's identifiers stay the options' values, which
// is what is sent): "WireGuard key pair" for `wireguard`, "SHA-256" for `SHA256`. Keyed
// `<parameter>.<value>`; test/web/messages.test.ts holds every language to every string choice the
// schemas have. Numbers (words, digits) are their own label.
import type { PageLanguage } from './messages.js'

type Labels = Readonly<Record<string, string>>

/** The ten BIP-39 lists, by phrase's `language` value, named in each page language. */
const BIP39_LANGUAGES: Readonly<Record<PageLanguage, Labels>> = {
  en: { english: 'English', chinese_simplified: 'Chinese (simplified)', chinese_traditional: 'Chinese (traditional)', czech: 'Czech', french: 'French', italian: 'Italian', japanese: 'Japanese', korean: 'Korean', portuguese: 'Portuguese', spanish: 'Spanish' },
  de: { english: 'Englisch', chinese_simplified: 'Chinesisch (vereinfacht)', chinese_traditional: 'Chinesisch (traditionell)', czech: 'Tschechisch', french: 'Französisch', italian: 'Italienisch', japanese: 'Japanisch', korean: 'Koreanisch', portuguese: 'Portugiesisch', spanish: 'Spanisch' },
  fr: { english: 'anglais', chinese_simplified: 'chinois simplifié', chinese_traditional: 'chinois traditionnel', czech: 'tchèque', french: 'français', italian: 'italien', japanese: 'japonais', korean: 'coréen', portuguese: 'portugais', spanish: 'espagnol' },
  es: { english: 'inglés', chinese_simplified: 'chino simplificado', chinese_traditional: 'chino tradicional', czech: 'checo', french: 'francés', italian: 'italiano', japanese: 'japonés', korean: 'coreano', portuguese: 'portugués', spanish: 'español' },
  ru: { english: 'английский', chinese_simplified: 'китайский (упрощённый)', chinese_traditional: 'китайский (традиционный)', czech: 'чешский', french: 'французский', italian: 'итальянский', japanese: 'японский', korean: 'корейский', portuguese: 'португальский', spanish: 'испанский' }
}

const OWN: Readonly<Record<PageLanguage, Labels>> = {
  en: {
    'protocol.shadowsocks': 'Shadowsocks password',
    'protocol.2022-blake3-aes-128-gcm': 'Shadowsocks 2022 key, AES-128-GCM',
    'protocol.2022-blake3-aes-256-gcm': 'Shadowsocks 2022 key, AES-256-GCM',
    'protocol.2022-blake3-chacha20-poly1305': 'Shadowsocks 2022 key, ChaCha20-Poly1305',
    'protocol.wireguard': 'WireGuard key pair',
    'protocol.wireguard-psk': 'WireGuard pre-shared key',
    'protocol.reality': 'Xray REALITY key pair (X25519)',
    'protocol.mlkem768': 'Xray ML-KEM-768 key pair (post-quantum)',
    'protocol.mldsa65': 'Xray ML-DSA-65 key pair (post-quantum)',
    'protocol.hex': '32 random bytes in hex',
    'format.standard': 'UUID version 4 (random)',
    'format.v7': 'UUID version 7 (time-ordered)',
    'format.ulid': 'ULID (time-ordered)',
    'format.numeric': 'Compact: digits',
    'format.alpha': 'Compact: letters',
    'format.alphanumeric': 'Compact: letters and digits',
    'format.urlsafe': 'Compact: URL-safe characters',
    'encoding.hex': 'Hexadecimal',
    'encoding.base64': 'Base64',
    'encoding.base64url': 'Base64, URL-safe',
    'encoding.base32': 'Base32 (TOTP secrets)',
    'algorithm.SHA1': 'SHA-1 (what most apps expect)',
    'algorithm.SHA256': 'SHA-256',
    'algorithm.SHA512': 'SHA-512',
    'wordList.eff-large': 'EFF large list (English, 7,776 words)',
    'wordList.bip39': 'BIP-39, {language} (2,048 words)'
  },
  de: {
    'protocol.shadowsocks': 'Shadowsocks-Passwort',
    'protocol.2022-blake3-aes-128-gcm': 'Shadowsocks-2022-Schlüssel, AES-128-GCM',
    'protocol.2022-blake3-aes-256-gcm': 'Shadowsocks-2022-Schlüssel, AES-256-GCM',
    'protocol.2022-blake3-chacha20-poly1305': 'Shadowsocks-2022-Schlüssel, ChaCha20-Poly1305',
    'protocol.wireguard': 'WireGuard-Schlüsselpaar',
    'protocol.wireguard-psk': 'WireGuard-Pre-Shared-Key',
    'protocol.reality': 'Xray-REALITY-Schlüsselpaar (X25519)',
    'protocol.mlkem768': 'Xray-ML-KEM-768-Schlüsselpaar (Post-Quanten)',
    'protocol.mldsa65': 'Xray-ML-DSA-65-Schlüsselpaar (Post-Quanten)',
    'protocol.hex': '32 Zufallsbytes hexadezimal',
    'format.standard': 'UUID Version 4 (zufällig)',
    'format.v7': 'UUID Version 7 (zeitlich geordnet)',
    'format.ulid': 'ULID (zeitlich geordnet)',
    'format.numeric': 'Kompakt: Ziffern',
    'format.alpha': 'Kompakt: Buchstaben',
    'format.alphanumeric': 'Kompakt: Buchstaben und Ziffern',
    'format.urlsafe': 'Kompakt: URL-sichere Zeichen',
    'encoding.hex': 'Hexadezimal',
    'encoding.base64': 'Base64',
    'encoding.base64url': 'Base64, URL-sicher',
    'encoding.base32': 'Base32 (TOTP-Geheimnisse)',
    'algorithm.SHA1': 'SHA-1 (was die meisten Apps erwarten)',
    'algorithm.SHA256': 'SHA-256',
    'algorithm.SHA512': 'SHA-512',
    'wordList.eff-large': 'Große EFF-Liste (Englisch, 7.776 Wörter)',
    'wordList.bip39': 'BIP-39, {language} (2.048 Wörter)'
  },
  fr: {
    'protocol.shadowsocks': 'Mot de passe Shadowsocks',
    'protocol.2022-blake3-aes-128-gcm': 'Clé Shadowsocks 2022, AES-128-GCM',
    'protocol.2022-blake3-aes-256-gcm': 'Clé Shadowsocks 2022, AES-256-GCM',
    'protocol.2022-blake3-chacha20-poly1305': 'Clé Shadowsocks 2022, ChaCha20-Poly1305',
    'protocol.wireguard': 'Paire de clés WireGuard',
    'protocol.wireguard-psk': 'Clé pré-partagée WireGuard',
    'protocol.reality': 'Paire de clés Xray REALITY (X25519)',
    'protocol.mlkem768': 'Paire de clés Xray ML-KEM-768 (post-quantique)',
    'protocol.mldsa65': 'Paire de clés Xray ML-DSA-65 (post-quantique)',
    'protocol.hex': '32 octets aléatoires en hexadécimal',
    'format.standard': 'UUID version 4 (aléatoire)',
    'format.v7': 'UUID version 7 (ordonné dans le temps)',
    'format.ulid': 'ULID (ordonné dans le temps)',
    'format.numeric': 'Compact : chiffres',
    'format.alpha': 'Compact : lettres',
    'format.alphanumeric': 'Compact : lettres et chiffres',
    'format.urlsafe': 'Compact : caractères sûrs pour les URL',
    'encoding.hex': 'Hexadécimal',
    'encoding.base64': 'Base64',
    'encoding.base64url': 'Base64, sûr pour les URL',
    'encoding.base32': 'Base32 (secrets TOTP)',
    'algorithm.SHA1': 'SHA-1 (ce qu’attendent la plupart des applications)',
    'algorithm.SHA256': 'SHA-256',
    'algorithm.SHA512': 'SHA-512',
    'wordList.eff-large': 'Grande liste de l’EFF (anglais, 7 776 mots)',
    'wordList.bip39': 'BIP-39, {language} (2 048 mots)'
  },
  es: {
    'protocol.shadowsocks': 'Contraseña de Shadowsocks',
    'protocol.2022-blake3-aes-128-gcm': 'Clave de Shadowsocks 2022, AES-128-GCM',
    'protocol.2022-blake3-aes-256-gcm': 'Clave de Shadowsocks 2022, AES-256-GCM',
    'protocol.2022-blake3-chacha20-poly1305': 'Clave de Shadowsocks 2022, ChaCha20-Poly1305',
    'protocol.wireguard': 'Par de claves de WireGuard',
    'protocol.wireguard-psk': 'Clave precompartida de WireGuard',
    'protocol.reality': 'Par de claves de Xray REALITY (X25519)',
    'protocol.mlkem768': 'Par de claves de Xray ML-KEM-768 (poscuántico)',
    'protocol.mldsa65': 'Par de claves de Xray ML-DSA-65 (poscuántico)',
    'protocol.hex': '32 bytes aleatorios en hexadecimal',
    'format.standard': 'UUID versión 4 (aleatorio)',
    'format.v7': 'UUID versión 7 (ordenado en el tiempo)',
    'format.ulid': 'ULID (ordenado en el tiempo)',
    'format.numeric': 'Compacto: dígitos',
    'format.alpha': 'Compacto: letras',
    'format.alphanumeric': 'Compacto: letras y dígitos',
    'format.urlsafe': 'Compacto: caracteres seguros para URL',
    'encoding.hex': 'Hexadecimal',
    'encoding.base64': 'Base64',
    'encoding.base64url': 'Base64, seguro para URL',
    'encoding.base32': 'Base32 (secretos TOTP)',
    'algorithm.SHA1': 'SHA-1 (lo que esperan la mayoría de las apps)',
    'algorithm.SHA256': 'SHA-256',
    'algorithm.SHA512': 'SHA-512',
    'wordList.eff-large': 'Lista grande de la EFF (inglés, 7776 palabras)',
    'wordList.bip39': 'BIP-39, {language} (2048 palabras)'
  },
  ru: {
    'protocol.shadowsocks': 'Пароль Shadowsocks',
    'protocol.2022-blake3-aes-128-gcm': 'Ключ Shadowsocks 2022, AES-128-GCM',
    'protocol.2022-blake3-aes-256-gcm': 'Ключ Shadowsocks 2022, AES-256-GCM',
    'protocol.2022-blake3-chacha20-poly1305': 'Ключ Shadowsocks 2022, ChaCha20-Poly1305',
    'protocol.wireguard': 'Пара ключей WireGuard',
    'protocol.wireguard-psk': 'Общий ключ WireGuard (PSK)',
    'protocol.reality': 'Пара ключей Xray REALITY (X25519)',
    'protocol.mlkem768': 'Пара ключей Xray ML-KEM-768 (постквантовая)',
    'protocol.mldsa65': 'Пара ключей Xray ML-DSA-65 (постквантовая)',
    'protocol.hex': '32 случайных байта в шестнадцатеричном виде',
    'format.standard': 'UUID версии 4 (случайный)',
    'format.v7': 'UUID версии 7 (упорядочен по времени)',
    'format.ulid': 'ULID (упорядочен по времени)',
    'format.numeric': 'Компактный: цифры',
    'format.alpha': 'Компактный: буквы',
    'format.alphanumeric': 'Компактный: буквы и цифры',
    'format.urlsafe': 'Компактный: символы, безопасные для URL',
    'encoding.hex': 'Шестнадцатеричная',
    'encoding.base64': 'Base64',
    'encoding.base64url': 'Base64, безопасная для URL',
    'encoding.base32': 'Base32 (секреты TOTP)',
    'algorithm.SHA1': 'SHA-1 (его ждёт большинство приложений)',
    'algorithm.SHA256': 'SHA-256',
    'algorithm.SHA512': 'SHA-512',
    'wordList.eff-large': 'Большой список EFF (английский, 7776 слов)',
    'wordList.bip39': 'BIP-39, {language} (2048 слов)'
  }
}

/** The words for `value` of parameter `name` in `language`; undefined for a choice that has none (a number). */
export function choiceLabel (language: PageLanguage, name: string, value: string | number): string | undefined {
  if (typeof value === 'number') return undefined
  if (name === 'language') return BIP39_LANGUAGES[language][value]
  if (name === 'wordList' && value.startsWith('bip39-')) {
    const list = BIP39_LANGUAGES[language][value.slice('bip39-'.length)]
    return list === undefined ? undefined : OWN[language]['wordList.bip39']?.replace('{language}', list)
  }
  return OWN[language][`${name}.${value}`]
}
