import sys

from blackcat.cli import main

sys.exit(main())
