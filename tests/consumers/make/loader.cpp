// Loads libplugin.so at run time (dlopen) and runs its kernels between its own.
#include "tiled_matmul.h"
#include <dlfcn.h>

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "./libplugin.so";
  int bad = consumer_tiled_matmul(32);
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
    return 1;
  }
  auto plugin = reinterpret_cast<int (*)(int)>(dlsym(lib, "plugin_tiled_matmul"));
  if (!plugin) return 1;
  bad += plugin(64);
  bad += consumer_tiled_matmul(48);
  bad += plugin(16);
  return bad ? 1 : 0;
}
