#!/bin/bash
# ten processes of the same cases one after another, five not bound to a CPU (u), five
# bound to CPU 2 (p), in turn; from the repository top, OUT=DIR: each document in DIR
B=$PWD/build/hipmembench
cd $OUT
lscpu > lscpu.txt; nproc >> lscpu.txt; numactl -H >> lscpu.txt 2>&1; nvidia-smi topo -m >> lscpu.txt 2>&1
run() { # tag cmd...
  local tag=$1; shift
  for i in 1 2 3 4 5; do
    for pin in u p; do
      pre=""; [ $pin = p ] && pre="taskset -c 2"
      $pre $B --output $tag-$pin$i.json "$@" > /dev/null 2>>err.txt
    done
  done
}
run mc memcpy --case 'h2d/registered/sync' --case 'd2h/registered/sync' --case 'h2d/pinned/sync' --case 'd2h/pageable/async' --sizes 64K,256K,16M
run pool pool --case 'alloc-free/*' --case 'course/*' --sizes 4096
run vmm vmm --case 'call/*' --sizes 2M,64M
tar czf out.tgz *.json *.txt; rm -f *.json
