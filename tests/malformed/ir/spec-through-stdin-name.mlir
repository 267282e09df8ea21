let T[i] = A[i]
