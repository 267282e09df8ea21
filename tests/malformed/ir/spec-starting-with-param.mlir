param M = 4
