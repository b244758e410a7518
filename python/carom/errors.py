"""carom.Error: a failed call of the C library, with its status and message.

The library returns a carom_status and leaves a message naming what went
wrong (a sphere, a file and line, a key); Error carries both. Mistakes the
Python side can see before calling C (a boundary name that does not
exist, a vector of the wrong length) raise ValueError or TypeError
instead.
"""

from . import _library


class Error(Exception):
    """A carom call failed: status is the C name of its carom_status
    ("CAROM_ERR_OVERLAP"), message the library's message."""

    def __init__(self, status, message):
        self.status = _library.status_name(status)
        self.message = message or _library.status_text(status)
        super().__init__(self.message)


def check_error(status, error):
    """Raises Error for a failed call that reported into a carom_error."""
    if status != 0:
        raise Error(status, error.message.decode(errors="replace"))
