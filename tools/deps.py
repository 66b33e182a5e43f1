"""Print the dependencies declared in pyproject.toml, one per line, for pip.

The Makefile installs from this list so that pyproject.toml stays the single
place where versions are pinned, with no build step for the project itself.
"""

import sys
import tomllib

with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)["project"]
wanted = list(project["dependencies"])
for extra in sys.argv[1:]:
    wanted += project["optional-dependencies"][extra]
print("\n".join(wanted))
