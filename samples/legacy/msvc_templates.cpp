// msvc_templates.cpp : a small statistics library in the style Visual Studio
// 2012 accepted: dependent type names without `typename`, members of a
// dependent base class used without this->, a helper found only when the
// template is instantiated, `typename` outside a template. GCC and Clang
// reject each of these by default; build with --msvc (see msvc_templates.flags).
//

#include "stdafx.h"
#include <amp.h>
#include <list>
#include <numeric>

using namespace concurrency;

typedef std::vector<float> Samples;
typedef typename Samples SampleVector;   // `typename` outside a template

template <typename InIt>
double Mean(InIt first, InIt last)
{
    InIt::difference_type count = std::distance(first, last);   // no `typename`
    std::iterator_traits<InIt>::value_type total = 0;
    for (InIt it = first; it != last; ++it)
        total += *it;
    return count ? (double)total / count : 0.0;
}

template <typename T>
class StatisticsBase
{
public:
    typedef std::vector<T> storage_type;
    void Add(T value) { m_values.push_back(value); }
    size_t Count() const { return m_values.size(); }

protected:
    storage_type m_values;
};

template <typename T>
class Statistics : public StatisticsBase<T>
{
public:
    storage_type Squares() const               // base typedef without StatisticsBase<T>::
    {
        storage_type result = m_values;         // base member without this->
        int n = (int)Count();
        array_view<T, 1> view(n, result);
        parallel_for_each(view.extent, [=](index<1> idx) restrict(amp)
        {
            view[idx] = view[idx] * view[idx];
        });
        view.synchronize();
        return result;
    }
    double Spread() const
    {
        return Range(m_values);                 // declared after this template
    }
};

template <typename C>
double Range(const C& c)
{
    C::const_iterator low = std::min_element(c.begin(), c.end());
    C::const_iterator high = std::max_element(c.begin(), c.end());
    return (double)(*high - *low);
}

int _tmain(int argc, _TCHAR* argv[])
{
    Statistics<float> stats;
    for (int i = 1; i <= 8; i++)
        stats.Add(i * 0.5f);

    SampleVector squares = stats.Squares();
    std::list<int> counts;
    for (int i = 0; i < 5; i++)
        counts.push_back(i * i);

    _tprintf(_T("count = %d\n"), (int)stats.Count());
    _tprintf(_T("mean of squares = %.4f\n"), Mean(squares.begin(), squares.end()));
    _tprintf(_T("spread = %.2f\n"), stats.Spread());
    _tprintf(_T("mean of a list = %.2f\n"), Mean(counts.begin(), counts.end()));
    return 0;
}
