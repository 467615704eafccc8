package shell

import "strings"

// Deletes in remote services (DESIGN §3.5, destructive): the service CLIs
// the command table does not list (doppler, restic, borg, velero, nats,
// circleci, rabbitmqctl, kafka-topics, doctl, hcloud, heroku, …) name the
// deletion with a verb in subcommand position ("doppler secrets delete",
// "restic forget", "heroku apps:destroy") or an option ("kafka-topics
// --delete"); an HTTP DELETE request goes to a service's API. What they
// delete lives on another machine and does not come back from the
// workspace.

// isDestroyVerb: the subcommand verbs that delete data in a service.
func isDestroyVerb(name string) bool {
	switch name {
	case "delete", "destroy", "purge", "del", "rdelete", "forget", "prune",
		"unregister", "wipe", "erase", "drop", "nuke", "terminate",
		"flushall", "flushdb", "flush", "truncate",
		// a database reset drops every table and re-creates them empty
		// (prisma migrate reset, supabase db reset, rails db:reset).
		"reset", "fresh", // php artisan migrate:fresh
		// unsubscribing drops a subscription; compacting frees the space of
		// deleted archives or history for good (borg, etcd).
		"unsubscribe", "compact",
		// the short forms of removal (nats stream rm, mc rm, mc rb: remove
		// bucket) and a forced reset (rabbitmqctl force_reset).
		"rm", "rb", "force_reset", "force-reset",
		// Liquibase's drop of every object, django-extensions' reset_db;
		// a service's setting or secret unset (heroku config:unset, fly
		// secrets unset), which the service runs without from then on.
		"dropall", "reset_db", "unset":
		return true
	}
	return false
}

// dataNoun reports whether a service CLI's object word names stored data,
// which its "clear" verb empties ("algolia indices clear", "mytool queue
// clear"); a cache cleared ("artisan cache:clear") is rebuilt.
func dataNoun(w string) bool {
	switch strings.TrimSuffix(w, "s") {
	case "index", "indice", "indexe", "record", "object", "queue", "table", "collection", "document", "bucket", "topic", "stream", "database", "db", "dataset", "log", "event", "message", "entrie", "entry", "item", "key":
		return true
	}
	return false
}

// nameDestroys reports whether a program's name holds a verb that
// deletes as one of its '-', '_' or '.' separated parts
// ("kafka-delete-records", "aws-nuke", "cloud_nuke"), and returns it.
func nameDestroys(name string) (string, bool) {
	if !strings.ContainsAny(name, "-_.") {
		return "", false
	}
	for part := range strings.FieldsFuncSeq(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		switch strings.ToLower(part) {
		case "delete", "destroy", "purge", "wipe", "nuke", "drop", "truncate", "erase", "shred":
			return part, true
		}
	}
	return "", false
}

// retireVerb: what a service retires or takes away, spelled its own way:
// archived feature flags and repositories, killed flags (Split), cleaned
// indexes (splunk clean eventdata), uninstalled plugins and cluster
// components (velero uninstall), untagged images, undeployed APIs; the
// whole word only
// ("borg create repo::archive" names an archive). On a tool that manages
// this machine's own toolchains and caches (roleLocalManager) they are
// everyday work.
func retireVerb(name string) bool {
	switch name {
	case "archive", "kill", "clean", "uninstall", "untag",
		// a deployment taken down (apigee deployments undeploy) and a
		// cluster member forgotten (rabbitmqctl forget_cluster_node).
		"undeploy", "forget_cluster_node":
		return true
	}
	return false
}

// The two ways a database task loses data (dbTaskDestroys).
const (
	migratesBackWhy  = " runs migrations backwards, dropping the tables and columns they made and the data in them"
	dropsDatabaseWhy = " drops or resets the database, deleting the data in it"
)

// dbTaskDestroys reports a database task that loses the data: a migration
// run backwards, which runs the down migrations that drop the tables and
// columns the migrations made ("rails db:rollback", "artisan
// migrate:rollback", "alembic downgrade", "knex migrate:rollback",
// "sequelize db:migrate:undo:all", "diesel migration revert", "goose
// down-to 0", "manage.py migrate APP zero", "dotnet ef database update
// 0"), or a task that drops or resets the database ("rake db:drop", "mix
// ecto.reset", "dotnet ef database drop", "npm run db:reset"). The verb
// counts in a database's context: a migration tool, or a "db",
// "database", "ecto" or "migrat…" word before it (words split at ':' and
// '.': "mix ecto.rollback"; "hg revert" is no migration). It returns the
// word and what the task does.
func dbTaskDestroys(name string, args []string) (string, string, bool) {
	ctx := hasRole(name, roleMigrator)
	// A migration tool's verb follows its driver and connection string
	// (goose DRIVER DBSTRING down); elsewhere among the first operands
	// (dotnet ef database update 0).
	limit := 4
	if ctx {
		limit = len(args)
	}
	ops := 0
	for i, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if ops++; ops > limit {
			break
		}
		for part := range strings.FieldsFuncSeq(strings.ToLower(a), func(r rune) bool { return r == ':' || r == '.' }) {
			switch {
			case !ctx:
			case part == "rollback" || part == "downgrade" || part == "revert" || part == "undo" || part == "down" || part == "down-to":
				return a, migratesBackWhy, true
			case part == "zero" && i >= 2 && args[i-2] == "migrate":
				// Django: migrate APP zero unapplies every migration.
				return a, migratesBackWhy, true
			case part == "0" && i >= 1 && args[i-1] == "update":
				// Entity Framework: database update 0 does.
				return a, migratesBackWhy, true
			case isDestroyVerb(part):
				return a, dropsDatabaseWhy, true
			}
			ctx = ctx || part == "db" || part == "database" || part == "ecto" || strings.Contains(part, "migrat")
		}
	}
	return "", "", false
}

// destroyPrefixes are verbs with an object ("delete-job", "delete_user",
// "repo-delete" is a suffix).
var destroyPrefixes = [...]string{"delete-", "delete_", "destroy-", "purge-", "drop-", "terminate-",
	"remove-", "remove_", "clear-", "clear_"}

// destroyOptions are the options of a service CLI that delete
// ("kafka-topics --delete", "kafka-configs --delete-config", "restic
// unlock --remove-all").
var destroyOptions = [...]string{"--delete", "--purge", "--destroy", "--force-delete", "--delete-", "--remove", "--remove-all",
	"--force-reset", "--accept-data-loss"} // prisma db push

// verbDestroys reports whether the arguments of a command the table does
// not know ask it to delete: a destroy verb among the first three
// operands (after a "group:" prefix, as in "apps:destroy"), or a destroy
// option. It returns the word.
func verbDestroys(args []string) (string, bool) {
	ops := 0
	prev := ""          // the operand before: what a "clear" empties
	afterLong := false  // the word follows a long option: maybe its value
	afterShort := false // the word follows a short option: maybe its value
	for _, a := range args {
		if a == "--" {
			return "", false
		}
		value := afterLong
		maybeValue := afterLong || afterShort
		afterLong, afterShort = false, false
		if strings.HasPrefix(a, "--") {
			afterLong = !strings.Contains(a, "=")
			name, _, _ := strings.Cut(a, "=")
			for _, o := range destroyOptions {
				if name == o || strings.HasSuffix(o, "-") && strings.HasPrefix(name, o) {
					return a, true
				}
			}
			continue
		}
		if strings.HasPrefix(a, "-") {
			afterShort = len(a) == 2
			continue
		}
		// The verb is among the first words a CLI's command path takes
		// ("wrangler kv namespace delete"); a word that may be an
		// option's value ("--config wrangler.toml", "-J eu") is not one
		// of them, though it is still read for a verb.
		if !maybeValue {
			if ops++; ops > 3 {
				return "", false
			}
		}
		v := strings.ToLower(a[strings.LastIndexByte(a, ':')+1:])
		if isDestroyVerb(v) || retireVerb(strings.ToLower(a)) || v == "clear" && dataNoun(prev) {
			return a, true
		}
		if !strings.HasPrefix(a, "-") {
			prev = strings.ToLower(a)
		}
		if value {
			// "mytool --name delete-me": a name that holds a verb is
			// the option's value; a bare verb still counts.
			continue
		}
		if strings.HasSuffix(v, "-delete") || destroyPart(v) {
			return a, true
		}
		for _, p := range destroyPrefixes {
			if strings.HasPrefix(v, p) {
				return a, true
			}
		}
	}
	return "", false
}

// httpDeletes reports whether a fetcher sends an HTTP DELETE to a host
// other than this machine: "curl -X DELETE URL", "wget --method=DELETE",
// "http DELETE URL". A local development service (localhost, 127.0.0.1)
// is the workspace's own and stays open. It returns the URL.
func httpDeletes(name string, args []string) (string, bool) {
	del, url := false, ""
	for i, a := range args {
		switch {
		case (a == "-X" || a == "--request" || a == "--method") && i+1 < len(args):
			del = del || strings.EqualFold(args[i+1], "DELETE")
		case strings.HasPrefix(a, "-X") && len(a) > 2:
			del = del || strings.EqualFold(a[2:], "DELETE")
		case strings.HasPrefix(a, "--request=") || strings.HasPrefix(a, "--method="):
			_, m, _ := strings.Cut(a, "=")
			del = del || strings.EqualFold(m, "DELETE")
		case strings.EqualFold(a, "DELETE") && (name == "http" || name == "https" || name == "xh" || name == "xhs") && (i == 0 || !strings.HasPrefix(args[i-1], "-")):
			del = true
		case url == "" && (strings.Contains(a, "://") || !strings.HasPrefix(a, "-") && strings.Contains(a, ".") && strings.Contains(a, "/") || localHostPort(a)):
			url = a
		}
	}
	if strings.HasPrefix(url, ":") {
		url = "localhost" + url // HTTPie's :PORT/PATH
	}
	// A delete endpoint is named after a data store's or a CI server's
	// API, so it deletes on this machine too; a DELETE to this machine
	// goes to a development server's test route unless the port is a
	// data store's.
	if url == "" || !deleteEndpoint(url) && (!del || loopbackURL(url) && !dataStorePort(url)) {
		return "", false
	}
	return url, true
}

// localHostPort reports whether a word is a scheme-less URL on this
// machine with a port: localhost:8001/x, 127.0.0.1:9200/x, or HTTPie's
// :9200/x.
func localHostPort(a string) bool {
	for _, p := range [...]string{"localhost:", "127.0.0.1:", "[::1]:", ":"} {
		if rest, ok := strings.CutPrefix(a, p); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return true
		}
	}
	return false
}

// dataStorePorts are the default HTTP ports of data stores and of the
// admin APIs of gateways and service registries, which a service on this
// machine (or a port forwarded to a cluster's) listens on: a delete there
// deletes data, not a development server's test route.
var dataStorePorts = [...]string{"9200", "7700", "8001", "8444", "5984", "8983", "8500", "2379", "8200", "15672", "8086", "8123",
	"6333", "8108", "7474", "19530"}

// dataStorePort reports whether a URL's port is one of dataStorePorts.
func dataStorePort(u string) bool {
	u = URLText(u)
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[:i]
	}
	i := strings.LastIndexByte(u, ':')
	if i < 0 || strings.HasSuffix(u, "]") {
		return false
	}
	port := u[i+1:]
	for _, p := range dataStorePorts {
		if port == p {
			return true
		}
	}
	return false
}

// deleteEndpoints are URL path segments that delete whatever the method:
// Elasticsearch's and OpenSearch's delete by query, Jenkins' doDelete and
// doWipeOutWorkspace (both POST), Prometheus' admin delete_series and
// clean_tombstones, Meilisearch's documents/delete-batch.
var deleteEndpoints = [...]string{"_delete_by_query", "dodelete", "dowipeoutworkspace", "delete_series", "clean_tombstones", "delete-batch"}

// deleteEndpoint reports whether a URL's path names a delete endpoint.
func deleteEndpoint(u string) bool {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	_, path, _ := strings.Cut(u, "/")
	for path != "" {
		var seg string
		seg, path, _ = strings.Cut(path, "/")
		for _, e := range deleteEndpoints {
			if strings.EqualFold(seg, e) {
				return true
			}
		}
	}
	return false
}

// loopbackURL reports whether a URL names this machine.
func loopbackURL(u string) bool { return ClassifyHost(URLHost(u)) == HostLoopback }
