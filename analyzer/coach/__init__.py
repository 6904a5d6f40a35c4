"""Coaching: judging the decisions of a played deal from what each seat knew when it made them."""
