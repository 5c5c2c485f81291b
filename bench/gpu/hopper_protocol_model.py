#!/usr/bin/env python3
"""hopper_protocol_model.py — a model of the Hopper kernel's synchronisation (src/cuda/kernel_hopper.cu,
schedule 2), run on the CPU before any GPU time is spent: the producer thread, the two consumer
warpgroups (one actor each; a warpgroup's 4 warps arrive on `empty` together), mbarriers (arrival count,
transaction bytes, phases, try_wait.parity), named barriers 2 and 3 (one warpgroup arrives, the other
syncs) and TMA copies that land at random later times; 3000 random interleavings over random tile-class
rows (T_c 1..9, classes 0/1/2) and 2 or 3 slots. Checks: no deadlock, no K or V slot overwritten while a
wgmma may still read it, every consumer reads the tile it expects, the named barriers end balanced.
It models the protocol as written in the kernel, not the hardware; mutations (6 arrivals on `empty`
instead of 8, or warpgroup 0 skipping its last sync) fail it. Usage: python3 hopper_protocol_model.py"""
import random

class Mbar:
    def __init__(s, count): s.count=count; s.pending=count; s.tx=0; s.phase=0  # phase = number of completed phases
    def arrive(s, n=1):
        s.pending-=n; assert s.pending>=0; s._maybe()
    def expect_tx(s, b): s.tx+=b
    def complete_tx(s, b): s.tx-=b; assert s.tx>=0; s._maybe()
    def _maybe(s):
        if s.pending==0 and s.tx==0: s.phase+=1; s.pending=s.count
    def _done(s, parity):
        # try_wait.parity P succeeds when the current (incomplete) phase's parity != P, i.e. phase P completed
        return (s.phase % 2) != parity

class NamedBar:
    def __init__(s): s.arrived=0; s.gen=0; s.syncers=0
    # 256 threads = two warpgroups: one arrives (128), one syncs (128)

def run(t_c, cls, S, seed):
    rng=random.Random(seed)
    tiles=[j for j in range(t_c) if cls[j]!=0]; N=len(tiles)
    full_k=[Mbar(1) for _ in range(S)]; full_v=[Mbar(1) for _ in range(S)]; empty=[Mbar(8) for _ in range(S)]
    q=Mbar(1)
    slot_content={('k',s):None for s in range(S)}; slot_content.update({('v',s):None for s in range(S)})
    inflight=[]  # (time_to_land, barrier, kind, slot, tile)
    # named barriers 2 and 3: count arrivals-by-generation
    nb={2:[0,0],3:[0,0]}  # [arrive_count_pending, sync_waiting]
    nbgen={2:0,3:0}
    def producer():
        q.expect_tx(1); q.arrive(); inflight.append(['q',q,None,None,None])
        yield
        for n,j in enumerate(tiles):
            s=n%S; r=n//S
            if r>0:
                while not empty[s]._done((r-1)&1): yield
            full_k[s].expect_tx(1); full_k[s].arrive()  # arrive.expect_tx: expect then arrive; model order-insensitive here
            inflight.append(['k',full_k[s],s,j,None])
            full_v[s].expect_tx(1); full_v[s].arrive()
            inflight.append(['v',full_v[s],s,j,None])
            yield
    def consumer(wg):
        my=2+wg; other=3-wg
        while not q._done(0): yield
        if N==0: return
        def bar_arrive(b):
            nb[b][0]+=1
        def bar_sync(b):
            g=nbgen[b]
            nb[b][1]+=1
            while True:
                if nb[b][0]>=1 and nb[b][1]>=1 and nbgen[b]==g:
                    nb[b][0]-=1; nb[b][1]-=1; nbgen[b]+=1; return
                if nbgen[b]>g: return
                yield
        if wg==1: bar_arrive(2)
        yield from bar_sync(my)
        while not full_k[0]._done(0): yield
        assert slot_content[('k',0)]==tiles[0]
        s_pending=[('k',0,tiles[0])]
        yield
        bar_arrive(other)
        for n in range(N):
            s=n%S; ph=(n//S)&1; last= n==N-1
            # wait<0>: S_n done (reads K slot) -- check still the right tile
            for (kind,sl,t) in s_pending: assert slot_content[(kind,sl)]==t, ('K overwritten', wg, n)
            s_pending=[]
            yield  # softmax
            yield from bar_sync(my)
            while not full_v[s]._done(ph): yield
            assert slot_content[('v',s)]==tiles[n], ('V wrong', wg, n)
            pv=('v',s,tiles[n])
            if not last:
                s2=(n+1)%S; ph2=((n+1)//S)&1
                while not full_k[s2]._done(ph2): yield
                assert slot_content[('k',s2)]==tiles[n+1], ('K wrong', wg, n+1, slot_content[('k',s2)])
                s_pending=[('k',s2,tiles[n+1])]
            bar_arrive(other)
            yield  # wgmma runs
            assert slot_content[(pv[0],pv[1])]==pv[2], ('V overwritten before PV done', wg, n)
            # K slot s of tile n also still intact? (S_n finished already)
            empty[s].arrive(4)
            yield
        if wg==0: yield from bar_sync(my)
    actors=[producer(), consumer(0), consumer(1)]
    alive=[True]*3
    steps=0
    while any(alive) or inflight:
        steps+=1
        if steps>200000: raise RuntimeError('deadlock? t_c=%d cls=%s S=%d seed=%d'%(t_c,cls,S,seed))
        choice=rng.random()
        if inflight and choice<0.3:
            i=rng.randrange(len(inflight)); kind,bar,s,j,_=inflight.pop(i)
            if kind!='q': slot_content[(kind,s)]=j
            bar.complete_tx(1)
            continue
        a=rng.randrange(3)
        if alive[a]:
            try: next(actors[a])
            except StopIteration: alive[a]=False
    for b in (2,3): assert nb[b]==[0,0], ('named barrier unbalanced', b, nb)
    return steps

cnt=0
for seed in range(3000):
    rng=random.Random(seed)
    t_c=rng.randint(1,9); S=rng.choice([2,3])
    cls=[rng.choice([0,1,2,1]) for _ in range(t_c)]
    run(t_c,cls,S,seed); cnt+=1
print('ok', cnt)
