"""Fair play judged from the server's own stamps: reaction times and the flags they raise."""
