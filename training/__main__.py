"""``python -m training``: see the package docstring."""

import os
import sys

# one thread, so that the fit sums in the same order on every machine (and leaves the other core be)
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

from training.fit import main  # noqa: E402  (after the thread limits, which numpy reads on import)

main(sys.argv[1:])
