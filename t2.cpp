#define min(a,b) (((a)<(b))?(a):(b))
#include <locale>
int f(){return std::min(1,2);}
