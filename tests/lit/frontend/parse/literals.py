# Numbers, strings and the other literals.
# RUN: %tilecc %s --emit=ast | FileCheck %s --strict-whitespace
# CHECK: {{^}}assign (name x) = (tuple (int 0) (int 42) (int 1000) (int 255) (int 15) (int 5) (int 9223372036854775807)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (tuple (float 1.0) (float 0.5) (float 5.0) (float 1e-05) (float 1.44269504) (float 0.1) (float 2000.0) (float 10.25) (float inf)){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (fstring "a" "b" "\\n" (fvalue (name y)) "é" "\tA\\"){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (bytes "xy\\u"){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (str "multi\nline"){{$}}
# CHECK-NEXT: {{^}}assign (name x) = (tuple (bool True) (bool False) (none) (tuple) (tuple (int 1)) (list) (list (int 1) (list (int 2))) (dict) (dict ((str "k") (int 1)) ((str "j") (list (int 2))))){{$}}
# CHECK-NOT: {{.}}
x = 0, 42, 1_000, 0x_fF, 0o17, 0b101, 9223372036854775807
x = 1.0, .5, 5., 1e-5, 1.44269504, 0.1, 2E3, 1_0.2_5, 1e400
x = 'a' "b" r'\n' f'{y}' u'\u00e9' '\t\x41\\'
x = b'x' b"y\u"
x = """multi
line"""
x = True, False, None, (), (1,), [], [1, [2]], {}, {'k': 1, "j": [2],}
