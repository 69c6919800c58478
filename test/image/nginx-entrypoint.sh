#!/bin/sh
# The nginx stand-in's entrypoint: what the official image's /docker-entrypoint.sh and its
# 20-envsubst-on-templates.sh do for randgen's edge, written again (docs/deploy.md lists how the
# stand-in differs). When the command is nginx: every executable file in /docker-entrypoint.d/, in
# `sort -V` order, is sourced (*.envsh) or run (*.sh); then /etc/nginx/templates/**/*.template is
# rendered with envsubst into /etc/nginx/conf.d/ (same relative path, suffix dropped),
# substituting only the variables set in the environment whose names match
# NGINX_ENVSUBST_FILTER.
set -eu

if [ "${1:-}" = nginx ] || [ "${1:-}" = nginx-debug ]; then
    for f in $(find /docker-entrypoint.d/ -follow -type f -print | sort -V); do
        case "$f" in
            *.envsh)
                if [ -x "$f" ]; then echo "$0: Sourcing $f"; . "$f"; else echo "$0: Ignoring $f, not executable"; fi ;;
            *.sh)
                if [ -x "$f" ]; then echo "$0: Launching $f"; "$f"; else echo "$0: Ignoring $f, not executable"; fi ;;
            *) echo "$0: Ignoring $f" ;;
        esac
    done

    template_dir=/etc/nginx/templates
    output_dir=/etc/nginx/conf.d
    filter="${NGINX_ENVSUBST_FILTER:-}"
    defined=$(printf '${%s} ' $(awk "END { for (name in ENVIRON) { print ( name ~ /${filter}/ ) ? name : \"\" } }" < /dev/null))
    if [ -d "$template_dir" ]; then
        find "$template_dir" -follow -type f -name '*.template' -print | while read -r template; do
            relative="${template#"$template_dir/"}"
            output="$output_dir/${relative%.template}"
            mkdir -p "$(dirname "$output")"
            echo "$0: Running envsubst on $template to $output"
            envsubst "$defined" < "$template" > "$output"
        done
    fi
    echo "$0: Configuration complete; ready for start up"

    # Debian's nginx has the stream module as a dynamic module; the official image has it built in
    shift
    if [ "${1:-}" = -g ]; then
        directives="load_module /usr/lib/nginx/modules/ngx_stream_module.so; $2"
        shift 2
        exec nginx -g "$directives" "$@"
    fi
    exec nginx -g 'load_module /usr/lib/nginx/modules/ngx_stream_module.so;' "$@"
fi
exec "$@"
