// Compile-time rules on the element type of array<T,N> and array_view<T,N>
// (AMP spec 5.1 / 5.2, and the static_asserts of Microsoft's amp.h):
//
// - the size of T is a multiple of the size of int. A class with no non-static
//   data member (an empty class, or one with only static members) has size 1
//   and is refused with this rule, as MSVC refuses it;
// - T is not itself an AMP container (array, array_view, texture, texture
//   views): those are not amp-compatible, they cannot live in an array;
// - an aggregate T has no data member of such a container type, nor a
//   reference to one. A library cannot list the members of an arbitrary
//   class; aggregates can be probed by aggregate initialisation (below), which
//   covers the structs such element types are in practice;
// - T is not a pointer (nor a pointer to member): an element is shared with
//   the accelerator, where a host pointer means nothing (MSVC C3581);
// - T has no virtual member functions (std::is_polymorphic). The other
//   compiler-side amp-compatibility rules (no virtual base classes, no pointer
//   members, no members of types restrict(amp) code cannot use) need a
//   compiler.
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

namespace Concurrency {
template <class T, int N> class array;
template <class T, int N> class array_view;
namespace graphics {
template <class T, int N> class texture;
template <class T, int N> class texture_view;
template <class T, int N> class writeonly_texture_view;
} // namespace graphics

namespace detail {

template <class T> struct is_amp_container_impl : std::false_type {};
template <class T, int N> struct is_amp_container_impl<Concurrency::array<T, N>> : std::true_type {};
template <class T, int N> struct is_amp_container_impl<Concurrency::array_view<T, N>> : std::true_type {};
template <class T, int N> struct is_amp_container_impl<graphics::texture<T, N>> : std::true_type {};
template <class T, int N> struct is_amp_container_impl<graphics::texture_view<T, N>> : std::true_type {};
template <class T, int N> struct is_amp_container_impl<graphics::writeonly_texture_view<T, N>> : std::true_type {};
template <class T> using is_amp_container = is_amp_container_impl<std::remove_cv_t<std::remove_reference_t<T>>>;

// Probes for aggregate initialisation: `any_field` converts to (a reference to)
// any type, `non_container_field` to any type but an AMP container. When an
// aggregate can be initialised from n `any_field`s but not from n
// `non_container_field`s, one of its first n elements is a container (or a
// reference to one): containers are not aggregates, so no brace elision can
// take the place of the refused conversion. The probes are only ever named in
// unevaluated operands.
struct any_field {
  template <class U> operator U&() const;
};
struct non_container_field {
  template <class U, std::enable_if_t<!is_amp_container<U>::value, int> = 0> operator U&() const;
};

template <class T, class Probe, class Seq, class = void> struct brace_initialisable : std::false_type {};
template <class T, class Probe, std::size_t... I>
struct brace_initialisable<T, Probe, std::index_sequence<I...>,
                           std::void_t<decltype(T{(static_cast<void>(I), std::declval<const Probe&>())...})>>
    : std::true_type {};

template <class T, std::size_t N>
constexpr bool container_among_first =
    brace_initialisable<T, any_field, std::make_index_sequence<N>>::value &&
    !brace_initialisable<T, non_container_field, std::make_index_sequence<N>>::value;

// Elements probed: enough for the structs kernels use; a larger aggregate is
// probed on its first 16 elements.
constexpr std::size_t max_probed_fields = 16;

template <class T, std::size_t... N> constexpr bool container_member_impl(std::index_sequence<N...>) {
  return (container_among_first<T, N + 1> || ...);
}
template <class T> constexpr bool has_container_member() {
  if constexpr (std::is_class<T>::value && std::is_aggregate<T>::value)
    return container_member_impl<T>(std::make_index_sequence<max_probed_fields>{});
  else
    return false;
}

// Instantiated in the bodies of array and array_view; `what` only names the
// class in the messages.
template <class T> struct element_type_check {
  using E = std::remove_cv_t<T>;
  static_assert(!is_amp_container<E>::value,
                "C++ AMP: the element type of an array or array_view must be amp-compatible: it cannot be an "
                "array, array_view, texture or texture view (containers cannot be nested)");
  static_assert(!has_container_member<E>(),
                "C++ AMP: the element type of an array or array_view must be amp-compatible: it cannot have a data "
                "member of type array, array_view, texture or texture view, nor a reference to one");
  static_assert(!std::is_pointer<E>::value && !std::is_member_pointer<E>::value,
                "C++ AMP: the element type of an array or array_view must be amp-compatible: it cannot be a "
                "pointer (MSVC C3581)");
  static_assert(!std::is_polymorphic<E>::value,
                "C++ AMP: the element type of an array or array_view must be amp-compatible: it cannot have virtual "
                "member functions");
  static_assert(sizeof(E) % sizeof(int) == 0,
                "C++ AMP: the size of the element type of an array or array_view must be a multiple of sizeof(int) "
                "(a class without non-static data members, e.g. one with only static members, has size 1)");
  static constexpr bool value = true;
};

} // namespace detail
} // namespace Concurrency
