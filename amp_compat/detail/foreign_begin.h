// Included before a third-party header (Kokkos, oneTBB) that amp_compat pulls
// in, with foreign_end.h after it: the Windows companions (compat/tchar.h,
// compat/Windows.h) define short macros that a legacy program has usually
// seen before <amp.h> (stdafx.h), and which are ordinary identifiers in those
// headers (Kokkos 4's mdspan names a template parameter _T). They are put
// aside for the third-party header and restored afterwards.
// No include guard: used once per third-party include.
#pragma push_macro("_T")
#pragma push_macro("__T")
#pragma push_macro("_TEXT")
#pragma push_macro("TEXT")
#pragma push_macro("TRUE")
#pragma push_macro("FALSE")
#undef _T
#undef __T
#undef _TEXT
#undef TEXT
#undef TRUE
#undef FALSE
