// a comment
# spec comment

input A[4] : f32
