// The gitea recipe (CONTRACT §14.3): test/recipes/gitea-family.ts says what is checked.
import { giteaFamilyTest } from './gitea-family.js'

giteaFamilyTest('gitea', 'GITEA', 'Gitea')
