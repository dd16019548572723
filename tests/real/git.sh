# SPDX-License-Identifier: MIT
# git in a scratch repository that is also $HOME (as many test suites
# set it): init, add, commit, log.  With fixed identities and dates the
# hashes are those of the native run, and so is the list of every file
# in the tree: nothing may appear that the program did not write.
set -e
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org
export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
export GIT_AUTHOR_DATE='2020-01-01T00:00:00Z' GIT_COMMITTER_DATE='2020-01-01T00:00:00Z'
export GIT_CONFIG_NOSYSTEM=1
git init -q -b main .
for i in 1 2 3; do echo "file $i" >"f$i.txt"; done
mkdir sub && echo nested >sub/n.txt
git add .
git commit -q -m first
echo changed >>f2.txt
git commit -q -am second
git log --format='%H %T %s'
git status --porcelain --ignored
git fsck --no-progress 2>&1
find . | LC_ALL=C sort
