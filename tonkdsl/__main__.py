"""``python -m tonkdsl`` runs the ``tonk`` command."""
from tonkdsl.cli import main

main()
