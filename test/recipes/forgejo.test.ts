// The forgejo recipe: Forgejo keeps Gitea's settings and readers, under FORGEJO__ (test/recipes/gitea-family.ts).
import { giteaFamilyTest } from './gitea-family.js'

giteaFamilyTest('forgejo', 'FORGEJO', 'Forgejo')
