module.exports = require('./dist/server');
