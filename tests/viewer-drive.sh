#!/bin/sh
echo "1..0 # SKIP not yet written"
