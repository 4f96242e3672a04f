"""``python -m retrograde``: play against perfect play in a window or, with
``--text`` (or without pygame or a display), in the terminal
(:mod:`retrograde.play`)."""

import sys

from retrograde.play import main

sys.exit(main())
