// RUN: tilec opt %s --split-input-file --verify-diagnostics
// Each verifier rule of the ta dialect, broken once.

func.func @contract_dim_mismatch(%a: tensor<?x?xbf16, ["M", "K"]>, %b: tensor<?x?xbf16, ["K2", "N"]>) {
  // expected-error @+1 {{'ta.contract' op rhs: dimension d2 is 'K' in one place and 'K2' in another}}
  %c = "ta.contract"(%a, %b) {maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K2", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return
}

// -----

func.func @contract_map_count(%a: tensor<?x?xbf16, ["M", "K"]>, %b: tensor<?x?xbf16, ["K", "N"]>) {
  // expected-error @+1 {{'ta.contract' op expects 3 maps in 'maps', got 2}}
  %c = "ta.contract"(%a, %b) {maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return
}

// -----

func.func @contract_not_projection(%a: tensor<?x?xbf16, ["M", "K"]>, %b: tensor<?x?xbf16, ["K", "N"]>) {
  // expected-error @+1 {{'ta.contract' op lhs map must be a projected permutation}}
  %c = "ta.contract"(%a, %b) {maps = [affine_map<(i, j, k) -> (i + 1, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return
}

// -----

func.func @unnamed_dims(%a: tensor<?x?xf32>) {
  // expected-error @+1 {{must name its dims in its encoding}}
  %m = "ta.reduce"(%a) {kind = "sum", dims = [1]} : (tensor<?x?xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @static_size_disagrees(%a: tensor<4x?xf32, ["8", "N"]>) {
  // expected-error @+1 {{size 4 does not agree with dimension '8'}}
  %m = "ta.reduce"(%a) {kind = "sum", dims = [1]} : (tensor<4x?xf32, ["8", "N"]>) -> tensor<4xf32, ["8"]>
  return
}

// -----

func.func @integer_elements(%a: tensor<?xi32, ["N"]>) {
  // expected-error @+1 {{must have an f32, f16 or bf16 element type}}
  %m = "ta.reduce"(%a) {kind = "sum", dims = [0]} : (tensor<?xi32, ["N"]>) -> tensor<i32, []>
  return
}

// -----

func.func @reduce_kind(%a: tensor<?x?xf32, ["M", "N"]>) {
  // expected-error @+1 {{'ta.reduce' op attribute 'kind' must be one of sum, max, min; got 'mean'}}
  %m = "ta.reduce"(%a) {kind = "mean", dims = [1]} : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?xf32, ["M"]>
  return
}

// -----

func.func @reduce_result(%a: tensor<?x?xf32, ["M", "N"]>) {
  // expected-error @+1 {{result dims [N] must be the operand dims without [1]: [M]}}
  %m = "ta.reduce"(%a) {kind = "sum", dims = [1]} : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?xf32, ["N"]>
  return
}

// -----

func.func @reduce_no_dims(%a: tensor<?x?xf32, ["M", "N"]>) {
  // expected-error @+1 {{'ta.reduce' op needs at least one dim to reduce}}
  %m = "ta.reduce"(%a) {kind = "sum", dims = []} : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return
}

// -----

func.func @softmax_dim(%a: tensor<?x?xf32, ["M", "N"]>) {
  // expected-error @+1 {{'ta.softmax' op dim 2 is out of range for rank 2}}
  %p = "ta.softmax"(%a) {dim = 2 : i64} : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return
}

// -----

func.func @logsumexp_result(%a: tensor<?x?xf32, ["M", "N"]>) {
  // expected-error @+1 {{'ta.logsumexp' op result dims [M, N] must be the operand dims without [1]: [M]}}
  %p = "ta.logsumexp"(%a) {dim = 1 : i64} : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  return
}

// -----

func.func @map_yield_type(%a: tensor<?xf32, ["M"]>) {
  // expected-error @+1 {{'ta.map' op body must yield one bf16 value}}
  %y = "ta.map"() ({
    %x = "ta.at"(%a) {map = affine_map<(i) -> (i)>} : (tensor<?xf32, ["M"]>) -> f32
    "ta.yield"(%x) : (f32) -> ()
  }) : () -> tensor<?xbf16, ["M"]>
  return
}

// -----

func.func @at_dim_mismatch(%a: tensor<?xf32, ["N"]>) {
  %y = "ta.map"() ({
    // expected-error @+1 {{'ta.at' op tensor dim #0 is 'N' but it is indexed by map dim d0 of size 'M'}}
    %x = "ta.at"(%a) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["N"]>) -> f32
    "ta.yield"(%x) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["M", "N"]>
  return
}

// -----

func.func @at_outside_map(%a: tensor<?xf32, ["N"]>) {
  // expected-error @+1 {{'ta.at' op must be inside a ta.map or ta.online body}}
  %x = "ta.at"(%a) {map = affine_map<(i) -> (i)>} : (tensor<?xf32, ["N"]>) -> f32
  return
}

// -----

func.func @index_dim() {
  %y = "ta.map"() ({
    // expected-error @+1 {{'ta.index' op dim 3 is out of range for the enclosing body of rank 1}}
    %i = "ta.index"() {dim = 3 : i64} : () -> index
    %c = arith.constant 1.0 : f32
    "ta.yield"(%c) : (f32) -> ()
  }) : () -> tensor<?xf32, ["M"]>
  return
}

// -----

func.func @param_name() {
  %y = "ta.map"() ({
    // expected-error @+1 {{'ta.param' op '2x' is not a shape parameter name}}
    %n = "ta.param"() {name = "2x"} : () -> index
    %c = arith.constant 1.0 : f32
    "ta.yield"(%c) : (f32) -> ()
  }) : () -> tensor<?xf32, ["M"]>
  return
}

// -----

func.func @remap_arity(%k: tensor<?x?xbf16, ["H/4", "T"]>) {
  // expected-error @+1 {{'ta.remap' op map must send the 2 result dims to the 2 operand dims}}
  %g = "ta.remap"(%k) {map = affine_map<(h, j) -> (h floordiv 4)>} : (tensor<?x?xbf16, ["H/4", "T"]>) -> tensor<?x?xbf16, ["H", "T"]>
  return
}

// -----

func.func @fill_type() {
  // expected-error @+1 {{'ta.fill' op value type must equal the result element type}}
  %z = "ta.fill"() {value = 0.0 : f16} : () -> tensor<4xf32, ["4"]>
  return
}

// -----

func.func @yield_outside(%c: f32) {
  // expected-error @+1 {{'ta.yield' op must be inside a ta.map or ta.online body}}
  "ta.yield"(%c) : (f32) -> ()
}

// -----

func.func @online_term_depends_on_dropped_dim(%s: tensor<?x?xf32, ["S", "T"]>, %v: tensor<?x?xf32, ["T", "D"]>) {
  // expected-error @+1 {{'ta.online' op a term depends on domain dim d2, which is neither kept nor reduced}}
  %l = "ta.online"() ({
    %w = "ta.at"(%v) {map = affine_map<(i, j, d) -> (j, d)>} : (tensor<?x?xf32, ["T", "D"]>) -> f32
    "ta.yield"(%w) : (f32) -> ()
  }) {kind = "sum", dim = 1 : i64, group = "g0", map = affine_map<(i, j, d) -> (i)>, extents = ["S", "T", "D"]} : () -> tensor<?xf32, ["S"]>
  return
}

// -----

func.func @online_two_terms_for_max(%s: tensor<?x?xf32, ["S", "T"]>) {
  // expected-error @+1 {{'ta.online' op body must yield one term, or two (x, t) for a stabilised or centred sum}}
  %l = "ta.online"() ({
    %x = "ta.at"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
    "ta.yield"(%x, %x) : (f32, f32) -> ()
  }) {kind = "max", dim = 1 : i64, group = "g0", map = affine_map<(i, j) -> (i)>, extents = ["S", "T"]} : () -> tensor<?xf32, ["S"]>
  return
}

// -----

func.func @online_moment_of_one_term(%s: tensor<?x?xf32, ["S", "T"]>) {
  // expected-error @+1 {{'ta.online' op 'moment' (1 to 4) belongs to a sum of two terms (x, t)}}
  %l = "ta.online"() ({
    %x = "ta.at"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
    "ta.yield"(%x) : (f32) -> ()
  }) {kind = "sum", dim = 1 : i64, group = "g0", map = affine_map<(i, j) -> (i)>, extents = ["S", "T"], moment = 2 : i64} : () -> tensor<?xf32, ["S"]>
  return
}

// -----

func.func @online_moment_out_of_range(%s: tensor<?x?xf32, ["S", "T"]>) {
  // expected-error @+1 {{'ta.online' op 'moment' (1 to 4) belongs to a sum of two terms (x, t)}}
  %l = "ta.online"() ({
    %x = "ta.at"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
    %one = arith.constant 1.0 : f32
    "ta.yield"(%x, %one) : (f32, f32) -> ()
  }) {kind = "sum", dim = 1 : i64, group = "g0", map = affine_map<(i, j) -> (i)>, extents = ["S", "T"], moment = 5 : i64} : () -> tensor<?xf32, ["S"]>
  return
}

// -----

func.func @online_keeps_reduced_dim(%s: tensor<?x?xf32, ["S", "T"]>) {
  // expected-error @+1 {{'ta.online' op map must project the 2-d domain onto the result, leaving out dim 1}}
  %l = "ta.online"() ({
    %x = "ta.at"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
    "ta.yield"(%x) : (f32) -> ()
  }) {kind = "sum", dim = 1 : i64, group = "g0", map = affine_map<(i, j) -> (i, j)>, extents = ["S", "T"]} : () -> tensor<?x?xf32, ["S", "T"]>
  return
}
