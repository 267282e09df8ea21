C[i] = A[i]
