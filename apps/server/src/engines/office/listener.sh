#!/bin/sh
# Runs one LibreOffice listener (the command given) for as long as both it and the Quire process
# that started it live: when LibreOffice ends, or when our stdin closes because Quire stopped it or
# died however it died, the whole process group goes. Quire starts this as a process group leader.
exec 3<&0
"$@" </dev/null &
office=$!
{ read -r _ <&3; kill -KILL 0; } &
wait "$office"
kill -KILL 0
