"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({
"t.op"() ({}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
}) : () -> ()
