"""Browser pages of the annotation app, split by area. Views stay short: selector, form, one service, render."""
