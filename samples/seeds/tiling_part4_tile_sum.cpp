#include <amp.h>
#include <vector>
#include <assert.h>

using namespace concurrency;

int main()
{
	std::vector<int> m(2*6);
	m[0]=130; m[1]=140; m[2]=150; m[3]=160; m[4] =170; m[5] =180;
	m[6]=290; m[7]=316; m[8]=342; m[9]=368; m[10]=394; m[11]=420;

	array_view<int, 2> av(2, 6, m);
	parallel_for_each(
		av.extent.tile<2,2>(),
		[=](tiled_index<2, 2> t_idx) restrict (amp) {

			tile_static int b[2][2];
			b[t_idx.local[0]][t_idx.local[1]] = av[t_idx.global];

			t_idx.barrier.wait();

			if (t_idx.local == index<2>(0,0))
			{
				av[t_idx.global] = b[0][0] + b[1][0] + b[0][1] + b[1][1];
			}

		});

	int sum = av(0, 0) + av(0, 2) + av(0, 4);

	assert(sum == 3060);
}
