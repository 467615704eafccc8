package notify

import (
	"context"
	"sync"
)

// fairQueue is a notifier's waiting messages, one queue per tenant (the
// agent credential whose session asked, else the workspace), served in
// turn: a tenant that floods fills its own queue and waits its turn like
// every other, so its messages cannot push another tenant's out or delay
// them behind its backlog.
type fairQueue struct {
	perTenant int // how many one tenant may have waiting
	maxTotal  int // how many all tenants together may have waiting

	mu     sync.Mutex
	queues map[string][]job
	ring   []string // tenants with messages waiting, in serving order
	total  int
	ready  chan struct{} // has a value while messages wait
}

// maxTenantsWaiting bounds the memory of the queue: this many tenants
// each with a full queue.
const maxTenantsWaiting = 16

func newFairQueue(perTenant int) *fairQueue {
	return &fairQueue{perTenant: perTenant, maxTotal: perTenant * maxTenantsWaiting,
		queues: map[string][]job{}, ready: make(chan struct{}, 1)}
}

// push queues j for tenant. It never blocks: a full queue (the tenant's
// or everyone's) refuses it.
func (q *fairQueue) push(tenant string, j job) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	jobs := q.queues[tenant]
	if len(jobs) >= q.perTenant || q.total >= q.maxTotal {
		return false
	}
	if len(jobs) == 0 {
		q.ring = append(q.ring, tenant)
	}
	q.queues[tenant] = append(jobs, j)
	q.total++
	select {
	case q.ready <- struct{}{}:
	default:
	}
	return true
}

// pop returns the next message: the first waiting of the tenant whose
// turn it is. It blocks until one waits or ctx ends.
func (q *fairQueue) pop(ctx context.Context) (job, bool) {
	for {
		q.mu.Lock()
		if len(q.ring) > 0 {
			tenant := q.ring[0]
			jobs := q.queues[tenant]
			j := jobs[0]
			jobs[0] = job{}
			q.ring = q.ring[1:]
			if jobs = jobs[1:]; len(jobs) > 0 {
				q.queues[tenant] = jobs
				q.ring = append(q.ring, tenant) // its next one after the others'
			} else {
				delete(q.queues, tenant)
			}
			q.total--
			if q.total > 0 {
				select {
				case q.ready <- struct{}{}:
				default:
				}
			}
			q.mu.Unlock()
			return j, true
		}
		q.mu.Unlock()
		select {
		case <-ctx.Done():
			return job{}, false
		case <-q.ready:
		}
	}
}
