// Restores what foreign_begin.h put aside. No include guard.
#pragma pop_macro("_T")
#pragma pop_macro("__T")
#pragma pop_macro("_TEXT")
#pragma pop_macro("TEXT")
#pragma pop_macro("TRUE")
#pragma pop_macro("FALSE")
