// amp_compat/compat/detail/smanip.h -- MSVC's manipulator type std::_Smanip,
// which its <iomanip> declares (and Microsoft's documentation shows for
// writing one's own manipulators with an argument): a function
// void f(std::ios_base&, Arg) and its argument, applied by << and >>.
// Force-included with crt_compat.h under --windows-compat; the name is one
// reserved to the implementation, which libstdc++ does not use.
#ifndef AMP_COMPAT_COMPAT_DETAIL_SMANIP_H
#define AMP_COMPAT_COMPAT_DETAIL_SMANIP_H

#include <istream>
#include <ostream>

namespace std {

template <class Arg>
struct _Smanip {
  _Smanip(void (*fun)(ios_base&, Arg), Arg arg) : _Pfun(fun), _Manarg(arg) {}
  void (*_Pfun)(ios_base&, Arg);
  Arg _Manarg;
};

template <class C, class Tr, class Arg>
basic_ostream<C, Tr>& operator<<(basic_ostream<C, Tr>& os, const _Smanip<Arg>& m) {
  (*m._Pfun)(os, m._Manarg);
  return os;
}

template <class C, class Tr, class Arg>
basic_istream<C, Tr>& operator>>(basic_istream<C, Tr>& is, const _Smanip<Arg>& m) {
  (*m._Pfun)(is, m._Manarg);
  return is;
}

}  // namespace std

#endif
