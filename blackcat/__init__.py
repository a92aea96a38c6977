"""Black Cat score counter: read a photo of kitty piles and score them."""

__version__ = "0.1.0"
