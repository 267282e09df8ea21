func.func private @f(memref<-1xf32>)
