// A timing header in the AMP book's style: it names AMP types unqualified in
// a function template, and the program says `using namespace concurrency`
// only after including it (MSVC looks the names up at instantiation).
#pragma once

template <typename Func>
double TimeIt(Func f) {
    accelerator_view view = accelerator(accelerator::default_accelerator).default_view;
    f();
    view.wait();
    return 1.0;
}
