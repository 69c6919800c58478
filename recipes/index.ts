// CONTRACT §14.3: the catalog, one file of data per recipe. Checked against the set schema (§10)
// when it loads (plugins/sets.ts): a broken recipe stops the start and fails the tests, never a request.
import type { Recipe } from '../schemas/recipes.js'
import airflow from './airflow.js'
import authelia from './authelia.js'
import authentik from './authentik.js'
import django from './django.js'
import forgejo from './forgejo.js'
import gitea from './gitea.js'
import immich from './immich.js'
import laravel from './laravel.js'
import mastodon from './mastodon.js'
import mosquitto from './mosquitto.js'
import n8n from './n8n.js'
import oidc from './oidc.js'
import outline from './outline.js'
import paperlessNgx from './paperless-ngx.js'
import plausible from './plausible.js'
import rails from './rails.js'
import reality from './reality.js'
import supabase from './supabase.js'
import synapse from './synapse.js'
import vapid from './vapid.js'
import vaultwarden from './vaultwarden.js'
import wireguard from './wireguard.js'
import zitadel from './zitadel.js'

/** Every recipe, by id. */
export const RECIPES: readonly Recipe[] = [
  airflow,
  authelia,
  authentik,
  django,
  forgejo,
  gitea,
  immich,
  laravel,
  mastodon,
  mosquitto,
  n8n,
  oidc,
  outline,
  paperlessNgx,
  plausible,
  rails,
  reality,
  supabase,
  synapse,
  vapid,
  vaultwarden,
  wireguard,
  zitadel
].sort((a, b) => a.id.localeCompare(b.id))
