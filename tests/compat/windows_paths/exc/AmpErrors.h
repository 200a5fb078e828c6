// A project header in the Visual Studio style: exception classes that pass a
// message to MSVC's std::exception(const char*) constructor.
#pragma once
#include <exception>
#include <string>

class SizeError : public std::exception
{
public:
    explicit SizeError(const char* msg) : std::exception(msg) {}
};

struct PlainError : std::exception  // no message: what() is MSVC's default text
{
};

inline void Require(bool ok, const char* why)
{
    if (!ok) throw std::exception(why);
}
