class ListingError(ValueError):
    """A listing that cannot be imported, with the line a curator should look at."""

    code = "invalid"

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"Line {line}: {message}")
        self.message = message
        self.line = line


class UnknownFormatError(ValueError):
    code = "invalid"
