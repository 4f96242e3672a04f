"""``python -m retrograde``: play against perfect play in a window
(:mod:`retrograde.play`)."""

import sys

from retrograde.play import main

sys.exit(main())
