// A temporary made by an implicit conversion, bound to a non-const lvalue
// reference parameter (Microsoft's conformance suite, CustomIterators.h:
// `InputIterator(std::vector<T>::const_iterator& it)` given an `iterator`):
// MSVC binds it (its C4239 extension); Clang rejects the call.
#include <amp.h>
#include <cstdio>
#include <vector>

template <class T> class reader {
  typename std::vector<T>::const_iterator at_;

public:
  explicit reader(typename std::vector<T>::const_iterator& at) : at_(at) {}
  T operator*() const { return *at_; }
};

template <class T> reader<T> first_of(std::vector<T>& v) {
  auto it = v.begin(); // an iterator, not a const_iterator
  return reader<T>(it);
}

int main() {
  std::vector<int> v(4, 1);
  concurrency::array_view<int, 1> av(4, v);
  concurrency::parallel_for_each(av.extent, [=](concurrency::index<1> i) restrict(amp) { av[i] = 10 * (i[0] + 1); });
  av.synchronize();
  std::printf("%d\n", *first_of(v));
  return 0;
}
